/**
 * Figure: the release (issue 28). `agent-linux-x64 --version` from `npm run release`'s own code
 * against a compiled program that only prints its version (bench/version-program.ts, same flags),
 * interleaved; and the size of every release binary against the 120 MB limit.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { buildStamp } from "../scripts/build.ts";
import { release } from "../scripts/release.ts";
import { binaryName, TARGETS } from "../scripts/release/targets.ts";
import { compile, productBuildFlags, TMP } from "./build.ts";
import { failureLine, type BenchContext, type FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, megabytes, ms, naRow, ratio, series, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";
import { tempDir } from "../tests/support/run.ts";

const RUNS = 21;
const VERSION_FIGURE = "release `agent-linux-x64 --version` (launch → exit)";
const VERSION_TARGET = "≤ 1.2× baseline";
const MAX_BYTES = 120 * 2 ** 20;

async function launchToExit(argv: string[], cwd: string): Promise<number> {
  const run = await runProcess(argv, { cwd, env: { PATH: "/usr/bin:/bin", HOME: cwd } });
  if (run.code !== 0) throw new Error(failureLine(argv.join(" "), run));
  return run.exitedAt - run.spawnedAt;
}

export async function releaseFigure(ctx: BenchContext): Promise<FigureResult> {
  const out = join(TMP, "release");
  ctx.log("release: building every target in parallel (scripts/release.ts)");
  const started = performance.now();
  const { errors, notes } = await release({ out, stamp: buildStamp() });
  const seconds = (performance.now() - started) / 1000;
  if (errors.length > 0) return { rows: [naRow(VERSION_FIGURE, VERSION_TARGET, errors.join("; "))], notes: [] };
  const bare = await compile("bench/version-program.ts", "version-program", productBuildFlags(), "version-only program");
  const cwd = tempDir("bench-release-");
  const failures: Record<string, string> = {};
  const measures: Record<string, () => Promise<number>> = {
    agent: guarded("agent", failures, () => launchToExit([join(out, "agent-linux-x64"), "--version"], cwd)),
  };
  if (bare.path) measures.bare = guarded("bare", failures, () => launchToExit([bare.path!], cwd));
  ctx.log(`release: ${RUNS} runs of ${Object.keys(measures).length} commands, interleaved`);
  const samples = await series(RUNS, measures, 3);
  const agent = medianOrFailure(samples.agent, failures.agent);
  const base = bare.path ? medianOrFailure(samples.bare, failures.bare) : { failure: bare.error ?? "did not build" };
  const rows: Row[] = [];
  if ("failure" in agent || "failure" in base) {
    rows.push(naRow(VERSION_FIGURE, VERSION_TARGET, "failure" in agent ? agent.failure : `baseline: ${(base as { failure: string }).failure}`));
  } else {
    rows.push({
      figure: VERSION_FIGURE,
      value: ms(agent.value),
      baseline: `${ms(base.value)} (compiled program printing its version)`,
      ratio: ratio(agent.value, base.value),
      target: VERSION_TARGET,
      result: verdict(agent.value <= 1.2 * base.value),
    });
  }
  for (const t of TARGETS) {
    const size = statSync(join(out, binaryName(t))).size;
    rows.push({
      figure: `release \`${binaryName(t)}\` size`,
      value: megabytes(size),
      baseline: "none (absolute)",
      ratio: "—",
      target: "≤ 120 MB",
      result: verdict(size <= MAX_BYTES),
    });
  }
  const spread = (name: string) => (samples[name] ? `${ms(Math.min(...samples[name]))} – ${ms(Math.max(...samples[name]))}` : "n/a");
  return {
    rows,
    notes: [
      `### Release (\`npm run release\`'s code, ${TARGETS.length} targets in parallel: ${seconds.toFixed(1)} s)\n\n` +
        `\`--version\` samples, min – max of ${RUNS}: agent ${spread("agent")}, version-only program ${spread("bare")}. ` +
        `Both compiled with \`${productBuildFlags().join(" ")}\`.${notes.length ? ` The release said: ${notes.join("; ")}.` : ""}`,
    ],
  };
}
