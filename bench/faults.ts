/**
 * The fault table (`bun run bench/faults.ts`): runs the fault suite (tests/e2e/wire/faults-*,
 * the session SIGKILL suite, the parallel-writer suites) with bun's JUnit reporter and the load
 * runs' FAULT_REPORT records, and writes bench/RESULTS.md's "faults" section: per suite the faults
 * tried, survived, hung (a test past its time limit), orphans and data lost; per load run its
 * peak RSS. Needs a built dist/agent (`npm run build`). Exits 1 when any fault was not survived.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeLoad, describeMachine, describeRevision } from "./machine.ts";
import { mergeSection } from "./report.ts";

const ROOT = join(import.meta.dir, "..");
const RESULTS = join(import.meta.dir, "RESULTS.md");

/** Suite file → what it faults, and whether a failure there means lost data or an orphan. */
const SUITES: { file: string; what: string; kind: "server" | "data" | "load" }[] = [
  { file: "tests/e2e/wire/faults-stdio.test.ts", what: "stdio server: a fault at each protocol step", kind: "server" },
  { file: "tests/e2e/wire/faults-http.test.ts", what: "HTTP server: HTTP itself broken", kind: "server" },
  { file: "tests/e2e/wire/faults-restart.test.ts", what: "a server killed or crashing mid-run", kind: "server" },
  { file: "tests/integration/registry-restart.test.ts", what: "a server dying on every call, restarts failing", kind: "server" },
  { file: "tests/e2e/wire/faults-http-refuse.test.ts", what: "an HTTP server refusing everything", kind: "server" },
  { file: "tests/e2e/wire/faults-model.test.ts", what: "the model API failing", kind: "server" },
  { file: "tests/e2e/session/faults-sigkill.test.ts", what: "SIGKILL of the agent at random points", kind: "data" },
  { file: "tests/e2e/mcp-commands/concurrent-writes.test.ts", what: "ten writers at once, and Claude Code beside us", kind: "data" },
  { file: "tests/integration/locked-writers.test.ts", what: "parallel writers of approvals, tokens, transcripts", kind: "data" },
  { file: "tests/e2e/wire/faults-load.test.ts", what: "load", kind: "load" },
];

interface Case {
  suite: string;
  name: string;
  passed: boolean;
  hung: boolean;
  message: string;
}

function parseJunit(xml: string): Case[] {
  const cases: Case[] = [];
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = m[1]!;
    const body = m[3] ?? "";
    const file = /file="([^"]*)"/.exec(attrs)?.[1] ?? "";
    const name = /name="([^"]*)"/.exec(attrs)?.[1] ?? "";
    const failure = /<failure\b[^>]*?(?:message="([^"]*)")?/.exec(body);
    const message = failure ? (failure[1] ?? "") : "";
    cases.push({ suite: file, name, passed: !failure && !/<skipped/.test(body), hung: /timed out after/i.test(message), message });
  }
  return cases;
}

const work = mkdtempSync(join(tmpdir(), "agent-faults-"));
const junit = join(work, "junit.xml");
const records = join(work, "load.jsonl");
const started = new Date();
const load = describeLoad();
const proc = Bun.spawn(["bun", "test", ...SUITES.map((s) => s.file), "--timeout", "60000", "--reporter=junit", `--reporter-outfile=${junit}`], {
  cwd: ROOT,
  env: { ...process.env, FAULT_REPORT: records, PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}` },
  stdout: "inherit",
  stderr: "inherit",
});
await proc.exited;
const cases = existsSync(junit) ? parseJunit(readFileSync(junit, "utf8")) : [];
const loads = existsSync(records)
  ? readFileSync(records, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { run: string; peakRssMb: number; orphans: number; ms: number })
  : [];
rmSync(work, { recursive: true, force: true });

const rows = SUITES.map((s) => {
  const mine = cases.filter((c) => s.file.endsWith(c.suite) || c.suite.endsWith(s.file));
  const failed = mine.filter((c) => !c.passed);
  const orphans = s.kind === "load" ? loads.reduce((n, l) => n + l.orphans, 0) : failed.filter((c) => /orphan|left|reaped/i.test(c.name + c.message)).length;
  const lost = s.kind === "data" ? failed.length : 0;
  return `| ${s.what} (\`${s.file.split("/").at(-1)}\`) | ${mine.length} | ${mine.length - failed.length} | ${mine.filter((c) => c.hung).length} | ${orphans} | ${lost} |`;
});
const total = cases.length;
const survived = cases.filter((c) => c.passed).length;
const table = [
  "| faults | tried | survived | hung | orphans | data lost |",
  "|---|---|---|---|---|---|",
  ...rows,
  `| **all** | **${total}** | **${survived}** | **${cases.filter((c) => c.hung).length}** | | |`,
].join("\n");
const loadTable = [
  "| load run | peak RSS of the agent | wall time | processes left |",
  "|---|---|---|---|",
  ...loads.map((l) => `| ${l.run} | ${l.peakRssMb} MB | ${l.ms} ms | ${l.orphans} |`),
].join("\n");
const failures = cases.filter((c) => !c.passed).map((c) => `- ${c.suite} › ${c.name}: ${c.message.slice(0, 200)}`);
const notes = [
  "Each fault is a test that asserts what the user gets: the line or error result naming the server, no wait past the documented timeout, no process left, the other servers unaffected, nothing lost. Survived = that test passed; hung = it hit its time limit; orphans and data lost count the failed tests of those kinds.",
  "",
  loadTable,
  ...(failures.length ? ["", "Not survived:", ...failures] : []),
].join("\n");
const section = {
  label: "faults",
  date: started.toISOString().replace(/\.\d+Z$/, "Z"),
  machine: describeMachine(),
  revision: describeRevision(ROOT),
  load: `${load} at the start, ${describeLoad()} at the end`,
  table,
  notes,
};
writeFileSync(RESULTS, mergeSection(existsSync(RESULTS) ? readFileSync(RESULTS, "utf8") : "", section));
process.stdout.write(`${table}\n\n${notes}\n`);
process.exit(survived === total && total > 0 ? 0 : 1);
