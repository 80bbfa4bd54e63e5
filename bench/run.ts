/**
 * The benchmark suite (`bun run bench`): builds the executables into bench/.tmp/, runs every
 * figure against a baseline measured in the same run, prints a markdown table and writes it to
 * bench/RESULTS.md under a label.
 *
 *   bun run bench [--label before|after|…] [--only startup,first-request,…] [--no-write]
 *
 * A figure that cannot be measured yet shows "n/a (reason)"; the run itself only fails (exit 2)
 * on bad flags. Benchmarks are not tests: nothing here asserts on time.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildAll, ROOT } from "./build.ts";
import { contextFigure } from "./fig-context.ts";
import { firstRequestFigure } from "./fig-first-request.ts";
import { framingFigure } from "./fig-framing.ts";
import { releaseFigure } from "./fig-release.ts";
import { httpFigure } from "./fig-http.ts";
import { modernFigure } from "./fig-modern.ts";
import { programFigure } from "./fig-program.ts";
import { rssFigure } from "./fig-rss.ts";
import { settingsFigure } from "./fig-settings.ts";
import { sandboxFigure } from "./fig-sandbox.ts";
import { bashRulesFigure } from "./fig-bash-rules.ts";
import { shutdownFigure } from "./fig-shutdown.ts";
import { startupFigure } from "./fig-startup.ts";
import { structuredFigure } from "./fig-structured.ts";
import { subagentsFigure } from "./fig-subagents.ts";
import { webFigure } from "./fig-web.ts";
import { tasksFigure } from "./fig-tasks.ts";
import { backgroundFigure } from "./fig-background.ts";
import { toolCallsFigure } from "./fig-tool-calls.ts";
import { toolsListFigure } from "./fig-tools-list.ts";
import { versusFigure } from "./fig-versus.ts";
import { checkpointsFigure } from "./fig-checkpoints.ts";
import type { BenchContext, Figure } from "./figure.ts";
import { describeLoad, describeMachine, describeRevision } from "./machine.ts";
import { naRow, oneLine, type Row } from "./measure.ts";
import { checkLabel, mergeSection, renderTable } from "./report.ts";

/** Figure id → the figure, in the order they run and appear in the table. */
const FIGURES: Record<string, Figure> = {
  startup: startupFigure,
  "first-request": firstRequestFigure,
  "tool-calls": toolCallsFigure,
  framing: framingFigure,
  shutdown: shutdownFigure,
  rss: rssFigure,
  context: contextFigure,
  http: httpFigure,
  settings: settingsFigure,
  "bash-rules": bashRulesFigure,
  sandbox: sandboxFigure,
  modern: modernFigure,
  tasks: tasksFigure,
  background: backgroundFigure,
  structured: structuredFigure,
  subagents: subagentsFigure,
  web: webFigure,
  versus: versusFigure,
  checkpoints: checkpointsFigure,
  release: releaseFigure,
  program: programFigure,
  "tools-list": toolsListFigure,
};

const RESULTS = join(import.meta.dir, "RESULTS.md");

function parseFlags(argv: string[]): { label: string; only: string[]; write: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: { label: { type: "string" }, only: { type: "string" }, "no-write": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`usage: bun run bench [--label NAME] [--only ${Object.keys(FIGURES).join(",")}] [--no-write]\n`);
    process.exit(0);
  }
  const only = values.only
    ? values.only
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : Object.keys(FIGURES);
  const unknown = only.filter((id) => !FIGURES[id]);
  if (unknown.length) throw new Error(`unknown figure ${unknown.join(", ")} (known: ${Object.keys(FIGURES).join(", ")})`);
  const label = values.label ?? "latest";
  checkLabel(label);
  return { label, only, write: !values["no-write"] };
}

async function main(): Promise<void> {
  let flags: ReturnType<typeof parseFlags>;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`bench: ${oneLine(error)}\n`);
    process.exit(2);
  }
  const started = performance.now();
  const loadAtStart = describeLoad();
  const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)} s] ${line}\n`);
  log("building into bench/.tmp/: the agent (the build script's flags), its build variants, the raw handshake and an empty program");
  const builds = await buildAll();
  for (const b of [builds.product, builds.variant, builds.rawHandshake, builds.empty, ...builds.extras]) if (b.error) log(`build failed: ${b.error}`);
  const ctx: BenchContext = { builds, log };
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const id of flags.only) {
    try {
      const result = await FIGURES[id]!(ctx);
      rows.push(...result.rows);
      notes.push(...result.notes);
    } catch (error) {
      log(`${id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      rows.push(naRow(id, "see bench/run.ts", oneLine(error)));
    }
  }
  const table = renderTable(rows);
  const machine = describeMachine();
  const load = `${loadAtStart} at the start, ${describeLoad()} at the end`;
  process.stdout.write(`\nMachine: ${machine}\nLoad average (1 / 5 / 15 min): ${load}\n\n${table}\n\n${notes.join("\n\n")}\n`);
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (!flags.write) return;
  let existing = "";
  try {
    existing = readFileSync(RESULTS, "utf8");
  } catch {
    // First run: RESULTS.md is created.
  }
  const section = {
    label: flags.label,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    machine,
    revision: describeRevision(ROOT),
    load,
    table,
    notes: [
      ...notes,
      `Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s${flags.only.length < Object.keys(FIGURES).length ? ` (only: ${flags.only.join(", ")})` : ""}.`,
    ].join("\n\n"),
  };
  writeFileSync(RESULTS, mergeSection(existing, section));
  log(`wrote bench/RESULTS.md, section "${flags.label}"`);
}

await main();
// Children that ignore EOF were killed by the figures; nothing should keep the loop alive.
process.exit(0);
