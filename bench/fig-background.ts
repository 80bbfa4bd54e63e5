/**
 * Figures: background work (lib/agent/background), in process, with real processes. (1) Starting
 * a background command (`TaskRegistry.startShell`: id, output file, spawn, group tracking) against
 * spawning the same `bash -c` directly, measured interleaved in the same run; the target is at
 * most 1.5×. (2) How long after a command's exit its notice is queued for the model, against
 * how long it takes just to detect the exit of the same command spawned directly.
 */
import { rmSync } from "node:fs";
import { TaskRegistry } from "../lib/agent/background/registry.ts";
import { tempDir } from "../tests/support/run.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio, series, verdict } from "./measure.ts";

const RUNS = 30;
const START_FIGURE = "background command start (startShell → it answers)";
const NOTICE_FIGURE = "background command: start → notice queued (`true`)";

const direct = (cmd: string) => Bun.spawn(["bash", "-c", cmd], { stdin: "ignore", stdout: "pipe", stderr: "ignore", detached: true });

export async function backgroundFigure(ctx: BenchContext): Promise<FigureResult> {
  const cwd = tempDir("agent-bench-background-");
  const registry = new TaskRegistry(() => {});
  registry.useSession(cwd, crypto.randomUUID());
  try {
    ctx.log(`background: ${RUNS} starts and notices, interleaved with direct spawns`);
    const samples = await series(RUNS, {
      start: async () => {
        const t0 = performance.now();
        registry.startShell({ command: "sleep 0.01", cwd, timeoutMs: 60_000 });
        const took = performance.now() - t0;
        while (registry.running().length) await registry.changed();
        registry.takeNotices();
        return took;
      },
      spawn: async () => {
        const t0 = performance.now();
        const proc = direct("sleep 0.01");
        const took = performance.now() - t0;
        await proc.exited;
        return took;
      },
      notice: async () => {
        const t0 = performance.now();
        registry.startShell({ command: "true", cwd, timeoutMs: 60_000 });
        while (!registry.hasNotices()) await registry.changed();
        registry.takeNotices();
        return performance.now() - t0;
      },
      exit: async () => {
        const t0 = performance.now();
        await direct("true").exited;
        return performance.now() - t0;
      },
    });
    const [start, spawn, notice, exit] = [median(samples.start), median(samples.spawn), median(samples.notice), median(samples.exit)];
    return {
      rows: [
        {
          figure: START_FIGURE,
          value: ms(start),
          baseline: `${ms(spawn)} (Bun.spawn of the same bash -c)`,
          ratio: ratio(start, spawn),
          target: "≤ 1.5× baseline",
          result: verdict(start <= 1.5 * spawn),
        },
        {
          figure: NOTICE_FIGURE,
          value: ms(notice),
          baseline: `${ms(exit)} (spawn → exit detected, direct)`,
          ratio: `+${ms(notice - exit)}`,
          target: "report",
          result: "reported",
        },
      ],
      notes: [
        [
          "### Background work",
          "",
          `Start: ${RUNS} interleaved pairs; the figure is the time until startShell returns (the task's id and output file made, the shell spawned in its own group`,
          "and tracked), the baseline the time until Bun.spawn of the same `bash -c` returns. Notice: a background `true` from startShell to its notice in the queue",
          "(the shell's exit, the output drained, the group checked, the file closed), against a direct spawn of `true` until its exit is detected. The notice is queued",
          "in the same tick the task's end is known; the difference is the draining and the group check after the exit.",
        ].join("\n"),
      ],
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { rows: [naRow(START_FIGURE, "≤ 1.5× baseline", reason), naRow(NOTICE_FIGURE, "report", reason)], notes: [] };
  } finally {
    await registry.stopAll();
    rmSync(cwd, { recursive: true, force: true });
  }
}
