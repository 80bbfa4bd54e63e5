/**
 * Figure: compiled executable start. `agent --version` and `agent -p hi` (no MCP servers,
 * scripted model) against the runtime's own start, `bun -e 0`; plus the same two for the build
 * with `--bytecode` toggled, to recommend a build script, and a compiled empty program (the
 * floor of any compiled executable) for the notes.
 *
 * Why `bun -e 0` and not `bun -e ''`: with an empty script bun 1.4 prints its usage and exits
 * without starting the JavaScript engine (~1.5 ms, 5 MB RSS), which is not "the runtime's start".
 */
import type { Build } from "./build.ts";
import { agentWorkspace, failureLine, timedModel, type BenchContext, type FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, ms, naRow, ratio, series, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 15;
const VERSION_FIGURE = "`agent --version` start (launch → exit)";
const VERSION_TARGET = "≤ 2× baseline";
const PRINT_FIGURE = "`agent -p hi`, no servers, scripted model (launch → exit)";

/** Launch → exit of one process, in ms. @throws Error when it exits non-zero. */
async function launchToExit(argv: string[], cwd: string, env: Record<string, string | undefined>): Promise<number> {
  const run = await runProcess(argv, { cwd, env });
  if (run.code !== 0) throw new Error(failureLine(argv.join(" "), run));
  return run.exitedAt - run.spawnedAt;
}

export async function startupFigure(ctx: BenchContext): Promise<FigureResult> {
  const { product, variant } = ctx.builds;
  if (!product.path) {
    const reason = product.error ?? "the agent did not build";
    return { rows: [naRow(VERSION_FIGURE, VERSION_TARGET, reason), naRow(PRINT_FIGURE, "report", reason)], notes: [] };
  }
  const model = timedModel("hi");
  const ws = agentWorkspace(model.url);
  try {
    const failedBuilds = [variant, ...ctx.builds.extras].filter((b) => !b.path);
    const exes: Build[] = [product, ...[variant, ...ctx.builds.extras].filter((b) => b.path)];
    const failures: Record<string, string> = {};
    const measure = (name: string, argv: string[]) => guarded(name, failures, () => launchToExit(argv, ws.cwd, ws.env));
    const measures: Record<string, () => Promise<number>> = { bun: measure("bun", [process.execPath, "-e", "0"]) };
    if (ctx.builds.empty.path) measures.empty = measure("empty", [ctx.builds.empty.path]);
    exes.forEach((b, i) => {
      measures[`version${i}`] = measure(`version${i}`, [b.path!, "--version"]);
      measures[`print${i}`] = measure(`print${i}`, [b.path!, "-p", "hi"]);
    });
    ctx.log(`start-up: ${RUNS} runs of ${Object.keys(measures).length} commands, interleaved`);
    const samples = await series(RUNS, measures);
    const get = (name: string) => medianOrFailure(samples[name], failures[name]);
    const bun = get("bun");
    if ("failure" in bun) throw new Error(`baseline bun -e 0 failed: ${bun.failure}`);
    const row = (figure: string, name: string, target: string, met?: (v: number) => boolean): Row => {
      const m = get(name);
      if ("failure" in m) return naRow(figure, target, m.failure);
      return {
        figure,
        value: ms(m.value),
        baseline: `${ms(bun.value)} (\`bun -e 0\`)`,
        ratio: ratio(m.value, bun.value),
        target,
        result: met ? verdict(met(m.value)) : "reported",
      };
    };
    const cell = (name: string) => {
      const m = get(name);
      return "failure" in m ? `n/a (${m.failure})` : ms(m.value);
    };
    const table = [
      `### Build variants (start-up, medians of ${RUNS} runs, interleaved)`,
      "",
      "| build | `--version` | `-p hi` (no servers) | executable size |",
      "|---|---|---|---|",
      ...exes.map((b, i) => `| ${b.label} | ${cell(`version${i}`)} | ${cell(`print${i}`)} | ${size(b.path!)} |`),
      ...failedBuilds.map((b) => `| ${b.label} | n/a (${b.error}) | | |`),
      "",
      `Baseline \`bun -e 0\`: ${ms(bun.value)}. Compiled empty program (${ctx.builds.empty.label}): ${ctx.builds.empty.path ? cell("empty") : `n/a (${ctx.builds.empty.error})`}.`,
    ];
    return {
      rows: [row(VERSION_FIGURE, "version0", VERSION_TARGET, (v) => v <= 2 * bun.value), row(PRINT_FIGURE, "print0", "report")],
      notes: [table.join("\n")],
    };
  } finally {
    model.stop();
    ws.remove();
  }
}

function size(path: string): string {
  return `${(Bun.file(path).size / 2 ** 20).toFixed(1)} MB`;
}
