/**
 * `npm test`'s runner: the test files shared out over a few `bun test` processes at once, and one
 * summary at the end (`N passed, N failed, N skipped`). Most tests wait on processes they start
 * (the agent, servers, a scripted model), so a few files at once use two cores better than one
 * file after another. Bun's own --parallel is not used: it hung at the end of the run.
 *
 *   bun scripts/test.ts [--jobs N] [path...]    paths: test files or folders (default: tests/ and bench/)
 *
 * Each e2e, stress, integration, conformance and bench file runs in a process of its own; unit tests run a
 * folder per process (they are quick, and a process costs a start). The slowest go first, by the
 * times of the last run (kept in dist/, which the build owns), so the run does not end waiting on
 * one long file. TEST_JOBS sets the number of processes; a failed file's whole output is printed.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
import { ROOT } from "./build.ts";

/** A test is ended by Bun after this long (ms): generous, to end a hang, never to judge speed. */
const TEST_TIMEOUT_MS = 120_000;
/** A whole `bun test` process is killed after this long (ms): a hang outside any test (a hook, the exit). */
const PROCESS_TIMEOUT_MS = 20 * 60_000;
const TIMES_FILE = join(ROOT, "dist", ".test-times.json");
const PATTERN = new Bun.Glob("**/*.test.ts");
/** With no times yet (a first run), the kinds that tend to be slow go first, in this order. */
const FIRST = ["tests/e2e/release/", "tests/stress/", "tests/conformance/", "tests/e2e/", "tests/integration/", "bench/", "tests/unit/"];
/** Above any measured time: a unit never timed sorts before the timed ones. */
const UNTIMED = 1e9;

interface Outcome {
  unit: string;
  code: number | null;
  pass: number;
  fail: number;
  skip: number;
  seconds: number;
  output: string;
}

/** The test files under `path` (a file or a folder), relative to the root, sorted. */
function filesUnder(path: string): string[] {
  const abs = join(ROOT, path);
  if (!existsSync(abs)) throw new Error(`no such test file or folder: ${path}`);
  if (statSync(abs).isFile()) return [relative(ROOT, abs)];
  return [...PATTERN.scanSync({ cwd: abs })].map((f) => relative(ROOT, join(abs, f))).sort();
}

/** What one `bun test` process runs: a unit-test folder (tests/unit/<name>/), or one other file. */
interface Unit {
  name: string;
  files: string[];
}

/** Groups files into units: a unit-test folder (tests/unit/<name>/) is one, every other file is one. */
export function unitsOf(files: string[]): Unit[] {
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const parts = file.split("/");
    const name = parts[0] === "tests" && parts[1] === "unit" && parts.length > 3 ? `${parts.slice(0, 3).join("/")}/` : file;
    groups.set(name, [...(groups.get(name) ?? []), file]);
  }
  return [...groups].map(([name, files]) => ({ name, files }));
}

function readTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES_FILE, "utf8"));
  } catch {
    return {};
  }
}

/** Bun's summary counts (`N pass`, `N fail`, `N skip`, on lines of their own). */
export function counts(output: string): { pass: number; fail: number; skip: number } {
  const n = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}$`, "m").exec(output)?.[1] ?? 0);
  return { pass: n("pass"), fail: n("fail"), skip: n("skip") + n("todo") };
}

async function runUnit({ name, files }: Unit): Promise<Outcome> {
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "test", "--timeout", String(TEST_TIMEOUT_MS), ...files.map((f) => `./${f}`)], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => proc.kill("SIGKILL"), PROCESS_TIMEOUT_MS);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  const output = `${stdout}${stderr}`;
  return { unit: name, code, ...counts(output), seconds: (performance.now() - started) / 1000, output };
}

/** The failing tests' lines and Bun's error report around them: a whole failed file's output. */
function report(o: Outcome): string {
  const why =
    o.code === 0 ? "" : o.fail === 0 ? ` (bun test exited with ${o.code ?? "a signal"} with no failed test: a crash, a hook or the process timeout)` : "";
  return `\n──── ${o.unit}: ${o.fail} failed${why}\n${o.output.trimEnd()}\n────\n`;
}

async function main(argv: string[]): Promise<number> {
  let jobs = Number(process.env.TEST_JOBS) || Math.min(4, Math.max(2, availableParallelism()));
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--jobs") jobs = Number(argv[++i]);
    else paths.push(argv[i]!);
  }
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error("--jobs takes a whole number of processes, at least 1");
  const files = [...new Set((paths.length ? paths : ["tests", "bench"]).flatMap(filesUnder))];
  const times = readTimes();
  // Longest first (by the last run); a unit never timed goes before the timed ones, as it may be long.
  const weight = (u: Unit) => times[u.name] ?? UNTIMED - FIRST.findIndex((prefix) => u.name.startsWith(prefix));
  const queue = unitsOf(files).sort((a, b) => weight(b) - weight(a));
  console.log(`${files.length} test files in ${queue.length} groups, ${jobs} at a time`);
  const started = performance.now();
  const outcomes: Outcome[] = [];
  const worker = async () => {
    for (let unit = queue.shift(); unit; unit = queue.shift()) {
      const o = await runUnit(unit);
      outcomes.push(o);
      times[unit.name] = o.seconds;
      const ok = o.code === 0 && o.fail === 0;
      console.log(
        `${ok ? "ok  " : "FAIL"} ${o.unit}: ${o.pass} passed${o.fail ? `, ${o.fail} failed` : ""}${o.skip ? `, ${o.skip} skipped` : ""} (${o.seconds.toFixed(1)} s)`,
      );
      if (!ok) console.log(report(o));
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  mkdirSync(dirname(TIMES_FILE), { recursive: true });
  writeFileSync(TIMES_FILE, `${JSON.stringify(times, null, 1)}\n`);
  const total = (k: "pass" | "fail" | "skip") => outcomes.reduce((sum, o) => sum + o[k], 0);
  const broken = outcomes.filter((o) => o.code !== 0 || o.fail > 0);
  // Skip notes (a missing tmux or qemu) are printed by the files themselves; repeat them once here.
  const notes = [...new Set(outcomes.flatMap((o) => o.output.split("\n").filter((l) => !l.startsWith("(") && /skipping|are skipped|is skipped/.test(l))))];
  for (const note of notes) console.log(`note: ${note.trim()}`);
  if (broken.length) console.log(`\nfailed: ${broken.map((o) => o.unit).join(", ")}`);
  console.log(`\n${total("pass")} passed, ${total("fail")} failed, ${total("skip")} skipped, in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return broken.length ? 1 : 0;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(`test: ${error.message}`);
      process.exit(2);
    },
  );
}
