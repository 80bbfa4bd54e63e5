/**
 * Figure: a very large tools/list (issue 34). One server (the fault server's list-many) with
 * 10 000 and with 100 000 tools, `-p` to the first model request: the time against parsing the
 * same reply with JSON.parse in this process (the floor any client pays), the agent's peak RSS,
 * and the 100 000 / 10 000 ratio, which stays near 10 when handling is linear in the reply
 * (the agent's fixed start-up cost pulls it below). `bun run bench/tools-list.ts` prints the same
 * measurements as a standalone table.
 */
import { join } from "node:path";
import { BUN, ROOT, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, type BenchContext, type FigureResult, timedModel } from "./figure.ts";
import { median, megabytes, ms, naRow, ratio, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const FAULT_SERVER = join(ROOT, "fixtures/servers/fault-server.ts");
const RUNS = 3;

export interface ToolsListMeasure {
  /** Median ms from spawn to the first model request. */
  firstRequestMs: number;
  /** Median ms of JSON.parse of the same reply. */
  parseMs: number;
  /** Median peak RSS of the agent (VmHWM), bytes; NaN where /proc cannot be read. */
  peakBytes: number;
  replyBytes: number;
}

/** The reply the server sends for `n` tools, as text, the same shape as list-many's. */
function replyText(n: number): string {
  const tools = Array.from({ length: n }, (_, i) => ({
    name: `t${i}`,
    description: `Tool number ${i}.`,
    inputSchema: { type: "object", properties: { x: { type: "string" } } },
  }));
  return JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools } });
}

/** `runs` runs of `agent -p hi` (argv: the agent's command) with one server listing `n` tools. @throws Error when a run fails. */
export async function measureToolsList(agent: string[], n: number, runs = RUNS): Promise<ToolsListMeasure> {
  const times: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < runs; i++) {
    const model = timedModel("done");
    const ws = agentWorkspace(model.url);
    try {
      writeMcpConfig(ws.cwd, { many: { command: BUN, args: [FAULT_SERVER, "list-many"], env: { FAULT_TOOLS: String(n) } } });
      const run = await runProcess([...agent, "-p", "hi"], { cwd: ws.cwd, env: ws.env, pollRssEveryMs: 5, timeoutMs: 300_000 });
      const arrival = model.lastArrival();
      if (run.code !== 0 || arrival === undefined) throw new Error(`run failed (${run.code}): ${run.stderr.trim().split("\n")[0]}`);
      times.push(arrival - run.spawnedAt);
      if (run.polledPeakRss !== undefined) peaks.push(run.polledPeakRss);
    } finally {
      model.stop();
      ws.remove();
    }
  }
  const text = replyText(n);
  const parses: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    JSON.parse(text);
    parses.push(performance.now() - start);
  }
  return { firstRequestMs: median(times), parseMs: median(parses), peakBytes: peaks.length ? median(peaks) : Number.NaN, replyBytes: text.length };
}

const SIZE_FIGURE = (n: string) => `${n} tools from one server: \`-p\` to the first request, against JSON.parse of the reply`;
const RATIO_FIGURE = "100 000 ÷ 10 000 tools: time to the first request";
const RATIO_TARGET = "near 10× (linear in the reply): ≤ 12×";

export async function toolsListFigure(ctx: BenchContext): Promise<FigureResult> {
  const exe = ctx.builds.product.path;
  if (!exe) return { rows: [naRow(RATIO_FIGURE, RATIO_TARGET, ctx.builds.product.error ?? "the agent did not build")], notes: [] };
  let small: ToolsListMeasure;
  let large: ToolsListMeasure;
  try {
    ctx.log(`tools-list: ${RUNS} runs with 10 000 tools, then ${RUNS} with 100 000`);
    small = await measureToolsList([exe], 10_000);
    large = await measureToolsList([exe], 100_000);
  } catch (error) {
    return { rows: [naRow(RATIO_FIGURE, RATIO_TARGET, String(error))], notes: [] };
  }
  const sizeRow = (label: string, m: ToolsListMeasure): Row => ({
    figure: SIZE_FIGURE(label),
    value: `${ms(m.firstRequestMs)} (peak RSS ${megabytes(m.peakBytes)})`,
    baseline: `${ms(m.parseMs)} (JSON.parse of the ${megabytes(m.replyBytes)} reply)`,
    ratio: ratio(m.firstRequestMs, m.parseMs),
    target: "reported",
    result: "reported",
  });
  const timeRatio = large.firstRequestMs / small.firstRequestMs;
  return {
    rows: [
      sizeRow("10 000", small),
      sizeRow("100 000", large),
      {
        figure: RATIO_FIGURE,
        value: ms(large.firstRequestMs),
        baseline: ms(small.firstRequestMs),
        ratio: `${timeRatio.toFixed(1)}×`,
        target: RATIO_TARGET,
        result: verdict(timeRatio <= 12),
      },
    ],
    notes: [
      `### A large tools/list (median of ${RUNS} runs per size)\n\n` +
        `100 000 ÷ 10 000: time to the first request ${timeRatio.toFixed(1)}×, JSON.parse ${(large.parseMs / small.parseMs).toFixed(1)}×, ` +
        `peak RSS ${(large.peakBytes / small.peakBytes).toFixed(1)}× (the process's own start-up memory included).`,
    ],
  };
}
