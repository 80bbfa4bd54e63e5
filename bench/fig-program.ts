/**
 * Figure: the grader's path (issue 32). `your_program.sh --version` against the executable it runs,
 * `dist/agent --version`, interleaved, both launched from a fresh temporary folder as the course's
 * grader does. The script runs from a copy of the tree in bench/.tmp/ (sources with their own
 * times, the product build as dist/agent, the source list the build writes), so `dist/` is left
 * alone. A second copy has no source list: the script then walks the tree with `find`, as every
 * run did before the list, and that figure is reported beside it.
 */
import { copyFileSync, cpSync, linkSync, mkdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { sourceEntries, writeSourceList } from "../scripts/build.ts";
import { tempDir } from "../tests/support/run.ts";
import { ROOT, TMP } from "./build.ts";
import { failureLine, type BenchContext, type FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, ms, msDelta, naRow, ratio, series, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 31;
const FIGURE = "`./your_program.sh --version` against `dist/agent --version` (launch → exit)";
const FIND_FIGURE = "the same script without the build's source list (`find` over the tree, the check before)";
const TARGET = "≤ 10 ms over the executable";

/** A copy of what your_program.sh looks at, with `exe` as its dist/agent; with the build's source list or without. */
function programTree(name: string, exe: string, withList: boolean): string {
  const dir = join(TMP, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "dist"), { recursive: true });
  for (const part of ["your_program.sh", "index.ts", "package.json", "lib"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true, preserveTimestamps: true });
  // Copying into a folder sets its time to now: each folder gets its original's time back, as in the tree built from.
  for (const entry of sourceEntries(ROOT)) {
    const original = statSync(join(ROOT, entry));
    if (original.isDirectory()) utimesSync(join(dir, entry), original.atime, original.mtime);
  }
  // The product build is newer than every source it was built from. A hard link keeps it one file
  // and, unlike a symbolic one, costs the script's checks no extra lookup.
  try {
    linkSync(exe, join(dir, "dist", "agent"));
  } catch {
    copyFileSync(exe, join(dir, "dist", "agent"));
  }
  if (withList) writeSourceList(dir, join(dir, "dist", "agent"));
  return dir;
}

export async function programFigure(ctx: BenchContext): Promise<FigureResult> {
  const exe = ctx.builds.product.path;
  if (!exe) return { rows: [naRow(FIGURE, TARGET, ctx.builds.product.error ?? "the agent did not build")], notes: [] };
  const listed = programTree("program-listed", exe, true);
  const walked = programTree("program-walked", exe, false);
  const cwd = tempDir("bench-program-");
  const env = { PATH: "/usr/bin:/bin", HOME: cwd };
  let expected: string | undefined;
  const launch = (argv: string[]) => async () => {
    const run = await runProcess(argv, { cwd, env });
    if (run.code !== 0) throw new Error(failureLine(argv.join(" "), run));
    expected ??= run.stdout;
    // The script must have run the executable, not fallen back to `bun run index.ts`.
    if (run.stdout !== expected) throw new Error(`${argv[0]} printed ${JSON.stringify(run.stdout)}, the executable ${JSON.stringify(expected)}`);
    return run.exitedAt - run.spawnedAt;
  };
  const failures: Record<string, string> = {};
  ctx.log(`program: ${RUNS} interleaved runs of dist/agent, your_program.sh, and your_program.sh walking the tree`);
  const samples = await series(
    RUNS,
    {
      direct: guarded("direct", failures, launch([exe, "--version"])),
      listed: guarded("listed", failures, launch([join(listed, "your_program.sh"), "--version"])),
      walked: guarded("walked", failures, launch([join(walked, "your_program.sh"), "--version"])),
    },
    3,
  );
  const direct = medianOrFailure(samples.direct, failures.direct);
  const rows: Row[] = [];
  for (const [name, figure, target] of [
    ["listed", FIGURE, TARGET],
    ["walked", FIND_FIGURE, "reported"],
  ] as const) {
    const script = medianOrFailure(samples[name], failures[name]);
    if ("failure" in direct || "failure" in script) {
      rows.push(naRow(figure, target, "failure" in direct ? `dist/agent: ${direct.failure}` : (script as { failure: string }).failure));
      continue;
    }
    rows.push({
      figure,
      value: `${ms(script.value)} (${msDelta(script.value - direct.value)})`,
      baseline: `${ms(direct.value)} (the executable alone)`,
      ratio: ratio(script.value, direct.value),
      target,
      result: name === "listed" ? verdict(script.value - direct.value <= 10) : "reported",
    });
  }
  return {
    rows,
    notes: [
      `### The grader's path (\`your_program.sh\`, ${RUNS} interleaved runs from a fresh folder)\n\n` +
        "The script checks each entry of the build's source list (`dist/agent.sources`: index.ts, package.json, lib/ and every folder and file in it) " +
        "with bash's own `-nt`: no process before it execs the " +
        "executable. Without the list it falls back to `find` over index.ts, lib/ and package.json, which was every run's cost before.",
    ],
  };
}
