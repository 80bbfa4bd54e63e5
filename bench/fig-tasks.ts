/**
 * Figures: following an MCP task (MCP 2025-11-25, basic/utilities/tasks) through the registry,
 * in process, against fixtures/servers/task-server.ts. (1) A task's wall time over the server's
 * own work (its createdAt → lastUpdatedAt of the completed task, the server's clock): polling at
 * pollInterval may add at most one interval. (2) This process's CPU per `tasks/get` poll: all of
 * a call's user + system time divided by its polls (so an over-estimate), with many short polls.
 */
import { rmSync } from "node:fs";
import type { McpRegistry } from "../lib/mcp/registry/registry.ts";
import { BUN, tempDir } from "../tests/support/run.ts";
import { TASK_SERVER } from "../tests/support/tasks.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, naRow, series, verdict } from "./measure.ts";

const RUNS = 5;
/** The wall-time server: 5 stages of 200 ms, polled every 100 ms. */
const WALL = { pollMs: 100, stages: 5, stageMs: 200 };
/** The CPU server: polled at our floor (50 ms) for 2.5 s, 50 polls a call. */
const CPU = { pollMs: 50, stages: 5, stageMs: 500 };
const WALL_FIGURE = `task call: wall time over the server's own work (pollInterval ${WALL.pollMs} ms)`;
const CPU_FIGURE = "task call: client CPU per tasks/get poll";

const entry = (name: string, c: typeof WALL) => ({
  name,
  type: "stdio" as const,
  command: BUN,
  args: [TASK_SERVER, "--poll-interval", String(c.pollMs), "--stages", String(c.stages), "--stage-ms", String(c.stageMs)],
  env: {},
});

export async function tasksFigure(ctx: BenchContext): Promise<FigureResult> {
  const cwd = tempDir("agent-bench-tasks-");
  let registry: McpRegistry | undefined;
  try {
    const { McpRegistry } = await import("../lib/mcp/registry/registry.ts");
    const polls: Record<string, number> = { wall: 0, cpu: 0 };
    const onTrace = (server: string, direction: "send" | "receive", message: string) => {
      if (direction === "send" && message.includes('"method":"tasks/get"')) polls[server]!++;
    };
    const log = (line: string) => ctx.log(`  [registry] ${line}`);
    registry = await McpRegistry.start([entry("wall", WALL), entry("cpu", CPU)], { cwd, log, onTrace });
    const r = registry;
    const work: number[] = [];
    const cpuPerPoll: number[] = [];
    ctx.log(`tasks: ${RUNS} task calls on each server`);
    const samples = await series(RUNS, {
      wall: async () => {
        let finished: { createdAt?: string; lastUpdatedAt?: string } = {};
        const started = performance.now();
        const result = await r.callTool("wall", "research", { topic: "bench" }, { onTaskStatus: (t) => (finished = t) });
        const wall = performance.now() - started;
        if (result.isError) throw new Error(`the task failed: ${JSON.stringify(result.content)}`);
        const own = Date.parse(finished.lastUpdatedAt!) - Date.parse(finished.createdAt!);
        work.push(own);
        return wall - own;
      },
      cpu: async () => {
        polls.cpu = 0;
        const before = process.cpuUsage();
        await r.callTool("cpu", "research", { topic: "bench" });
        const used = process.cpuUsage(before);
        cpuPerPoll.push((used.user + used.system) / Math.max(1, polls.cpu!));
        return polls.cpu!;
      },
    });
    const overhead = median(samples.wall);
    // series() dropped the warm-up sample from its own results; these arrays still have it first.
    const perPoll = median(cpuPerPoll.slice(1));
    return {
      rows: [
        {
          figure: WALL_FIGURE,
          value: `+${overhead.toFixed(0)} ms`,
          baseline: `${median(work.slice(1)).toFixed(0)} ms (the server's own work)`,
          ratio: `${((100 * overhead) / WALL.pollMs).toFixed(0)} % of pollInterval`,
          target: `≤ 1 pollInterval (${WALL.pollMs} ms)`,
          result: verdict(overhead <= WALL.pollMs),
        },
        {
          figure: CPU_FIGURE,
          value: `${perPoll.toFixed(0)} µs`,
          baseline: `${median(samples.cpu)} polls per call`,
          ratio: `${((100 * perPoll) / 1000).toFixed(0)} % of 1 ms`,
          target: "≤ 1 ms",
          result: verdict(perPoll <= 1000),
        },
      ],
      notes: [
        [
          "### Following a task",
          "",
          `Wall time: ${RUNS} calls of a ${WALL.stages} × ${WALL.stageMs} ms task polled every ${WALL.pollMs} ms; the figure is the call's wall time (tools/call to the tool result) minus the`,
          "server's own createdAt → lastUpdatedAt, so it holds the wait for the next poll, tasks/result and the round trips. CPU: all of this process's",
          `user + system time during a ${CPU.stages * CPU.stageMs} ms task polled every ${CPU.pollMs} ms, divided by its tasks/get polls (tools/call, tasks/result and idle time included).`,
        ].join("\n"),
      ],
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { rows: [naRow(WALL_FIGURE, `≤ 1 pollInterval (${WALL.pollMs} ms)`, reason), naRow(CPU_FIGURE, "≤ 1 ms", reason)], notes: [] };
  } finally {
    await registry?.shutdown();
    rmSync(cwd, { recursive: true, force: true });
  }
}
