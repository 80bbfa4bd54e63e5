/**
 * Figure: this revision against an earlier one, as whole processes (`--only versus`, base from
 * `BENCH_BASE=<git ref>`, default the last commit before the shared turn). Both executables are
 * built with package.json's flags; each pair of runs alternates old, new, old, new… so the
 * machine's drift hits both alike. Two paths:
 * - `-p` start-up: `agent -p hi` with one stdio fixture server (launch → exit);
 * - the stdio call path: one `-p` run whose scripted model calls the fixture's `echo` tool 30
 *   times in a row (launch → exit).
 * "No slower" means the medians' ratio lies within the run-to-run spread (the middle half of
 * the base's samples, as a share of its median).
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../tests/support/model-server.ts";
import { FIXTURE_SERVER } from "../tests/support/run.ts";
import { compile, productBuildFlags, ROOT, TMP } from "./build.ts";
import { agentWorkspace, failureLine, type BenchContext, type FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio, series, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 20;
const CALLS = 30;
/** The commit before lib/cli/turn.ts: the structure step's baseline. */
const DEFAULT_BASE = "c11ab80";
const START_FIGURE = "`-p hi` with one stdio server, new ÷ base revision (launch → exit)";
const CALLS_FIGURE = `\`-p\` making ${CALLS} stdio tool calls, new ÷ base revision (launch → exit)`;
const TARGET = "within the base's run-to-run spread";

/** Builds `ref` from a detached worktree into bench/.tmp/agent-base. @throws Error naming what failed. */
async function buildBase(ref: string): Promise<string> {
  const src = join(TMP, "base-src");
  rmSync(src, { recursive: true, force: true });
  Bun.spawnSync(["git", "worktree", "prune"], { cwd: ROOT });
  const added = Bun.spawnSync(["git", "worktree", "add", "--detach", "--force", src, ref], { cwd: ROOT, stderr: "pipe" });
  if (added.exitCode !== 0) throw new Error(`git worktree add ${ref}: ${added.stderr.toString().trim()}`);
  try {
    if (!existsSync(join(src, "node_modules"))) symlinkSync(join(ROOT, "node_modules"), join(src, "node_modules"));
    const build = await compile(join(src, "index.ts"), "agent-base", productBuildFlags(), `base ${ref}`);
    if (!build.path) throw new Error(build.error);
    return build.path;
  } finally {
    Bun.spawnSync(["git", "worktree", "remove", "--force", src], { cwd: ROOT });
  }
}

/** The middle half of `samples` as a share of their median: the spread a ratio must stay within. */
function spread(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return (q(0.75) - q(0.25)) / median(samples);
}

function row(figure: string, base: number[], now: number[]): Row {
  const r = median(now) / median(base);
  const allowed = spread(base);
  return {
    figure,
    value: ms(median(now)),
    baseline: ms(median(base)),
    ratio: ratio(median(now), median(base)),
    target: `${TARGET} (±${(allowed * 100).toFixed(0)} %)`,
    result: verdict(r <= 1 + allowed),
  };
}

export async function versusFigure(ctx: BenchContext): Promise<FigureResult> {
  const product = ctx.builds.product.path;
  const ref = process.env.BENCH_BASE ?? DEFAULT_BASE;
  if (!product) return { rows: [naRow(START_FIGURE, TARGET, "the agent did not build"), naRow(CALLS_FIGURE, TARGET, "the agent did not build")], notes: [] };
  let base: string;
  try {
    ctx.log(`versus: building ${ref}`);
    base = await buildBase(ref);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { rows: [naRow(START_FIGURE, TARGET, reason), naRow(CALLS_FIGURE, TARGET, reason)], notes: [] };
  }
  const steps = () => [...Array.from({ length: CALLS }, () => reply(toolUse("mcp__fx__echo", { text: "hi" }))), reply(text("done"))];
  let script = steps();
  // One step per request, each taking the next reply of the current script.
  const model = startModelServer(Array.from({ length: 100_000 }, () => () => script.shift() ?? reply(text("done"))));
  const ws = agentWorkspace(model.url);
  try {
    mkdirSync(ws.cwd, { recursive: true });
    writeFileSync(join(ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER] } } }));
    const run = async (exe: string, prompt: string, fresh: boolean) => {
      if (fresh) script = steps();
      else script = [reply(text("hi"))];
      const r = await runProcess([exe, "-p", prompt], { cwd: ws.cwd, env: ws.env });
      if (r.code !== 0) throw new Error(failureLine(exe, r));
      return r.exitedAt - r.spawnedAt;
    };
    ctx.log(`versus: -p start-up, ${RUNS} alternating runs each`);
    const start = await series(RUNS, { base: () => run(base, "hi", false), now: () => run(product, "hi", false) });
    ctx.log(`versus: ${CALLS} tool calls, ${RUNS} alternating runs each`);
    const calls = await series(RUNS, { base: () => run(base, "go", true), now: () => run(product, "go", true) });
    return {
      rows: [row(START_FIGURE, start.base, start.now), row(CALLS_FIGURE, calls.base, calls.now)],
      notes: [
        `Versus: base revision \`${ref}\` (BENCH_BASE), ${RUNS} alternating runs of each side per figure, medians compared; the allowed spread is the base's interquartile range over its median.`,
      ],
    };
  } finally {
    model.stop();
    ws.remove();
  }
}
