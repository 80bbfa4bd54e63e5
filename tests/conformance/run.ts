/**
 * Runs client scenarios of the MCP conformance suites against our client, several at once, and
 * prints one line per scenario and the totals: `@modelcontextprotocol/conformance` 0.1.16 (the
 * transport, elicitation and auth scenarios) and, under the alias `conformance-next`, 0.2.0-alpha.12,
 * every client scenario at each spec version it applies to (`--spec-version`; extension scenarios
 * once, on lines of their own). `bun tests/conformance/run.ts [--suite current|next] [scenario[@version]…]`;
 * exit 1 when a scenario fails that the baseline (baseline.yml, baseline-next.yml: the suite's
 * `--expected-failures`) does not list.
 * Each scenario gets a fresh config folder (so no token leaks between them) and the `$BROWSER`
 * stand-in, which follows the suite's authorization redirect like a person approving at once.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const BUN = process.execPath;
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
/** The newer suite (0.2.0-alpha.12, installed as conformance-next): its skills-over-MCP scenarios. */
const SUITE_NEXT = join(ROOT, "node_modules/@modelcontextprotocol/conformance-next/dist/index.js");
export const BASELINE = join(import.meta.dir, "baseline.yml");
export const BASELINE_NEXT = join(import.meta.dir, "baseline-next.yml");

export type Suite = "current" | "next";

/** One run of a scenario: in a suite, at a spec version (none for an extension scenario). */
export interface ScenarioRun {
  suite: Suite;
  scenario: string;
  specVersion?: string;
}

/** Client scenarios of the next suite that are not ours here: each owner's client drives them. */
export const NEXT_CLIENTS: Record<string, string> = {};

/**
 * Every client scenario of the next suite with the spec versions it applies to, from its own
 * `list --client` ("  - name [2025-11-25,2026-07-28]"; "[extension]" → one run without a version).
 */
export async function nextRuns(): Promise<ScenarioRun[]> {
  const proc = Bun.spawn([BUN, SUITE_NEXT, "list", "--client"], { stdout: "pipe", stderr: "ignore" });
  const text = await new Response(proc.stdout).text();
  const runs: ScenarioRun[] = [];
  for (const [, scenario, tags] of text.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?$/gm)) {
    const versions = (tags ?? "").split(",").filter((v) => /^\d{4}-\d{2}-\d{2}$/.test(v));
    if (!versions.length) runs.push({ suite: "next", scenario: scenario! });
    for (const specVersion of versions) runs.push({ suite: "next", scenario: scenario!, specVersion });
  }
  return runs;
}

/** The line a run is reported under: `request-metadata@2026-07-28`, `auth/dpop (extension)`. */
export function runLabel(run: ScenarioRun): string {
  if (run.suite === "current") return run.scenario;
  return run.specVersion ? `${run.scenario}@${run.specVersion}` : `${run.scenario} (extension)`;
}

/** The 22 authorization scenarios of conformance 0.1.16 (basic/authorization, its drafts and extensions). */
export const AUTH_SCENARIOS = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
];

/**
 * The transport scenarios (basic/transports, basic/lifecycle) and elicitation's SEP-1034 defaults
 * (client/elicitation): driven through the real program's inspector.
 */
export const HTTP_SCENARIOS = ["initialize", "tools_call", "sse-retry", "elicitation-sep1034-client-defaults"];
/** The four SEP-2640 client scenarios of conformance 0.2.0-alpha.12 (skills over MCP), driven through `mcp skills` / `mcp skill`. */
export const SKILLS_SCENARIOS = [
  "sep-2640-client-no-prefetch",
  "sep-2640-client-verify-digest",
  "sep-2640-client-verify-size",
  "sep-2640-client-verify-frontmatter",
];
/** The next suite's transport and lifecycle scenarios (MCP 2026-07-28): http-client.ts has their steps. */
export const HTTP_SCENARIOS_NEXT = [
  "request-metadata",
  "sep-2322-client-request-state",
  "http-standard-headers",
  "http-custom-headers",
  "http-invalid-tool-headers",
  "json-schema-ref-no-deref",
  "json-schema-2020-12-preservation",
];
/** Client scenarios of the suite that are not run yet, with the reason the total line prints. */
export const NOT_RUN: Record<string, string> = {};

/** The client command for a scenario; the suite appends the server URL. */
export function clientCommand(scenario: string): string {
  if (scenario.startsWith("auth/"))
    return `${BUN} ${join(import.meta.dir, process.env.CONFORMANCE_CLIENT === "provider" ? "auth-client.ts" : "agent-client.ts")}`;
  if (SKILLS_SCENARIOS.includes(scenario)) return `${BUN} ${join(import.meta.dir, "skills-client.ts")}`;
  if (HTTP_SCENARIOS.includes(scenario) || HTTP_SCENARIOS_NEXT.includes(scenario)) return `${BUN} ${join(import.meta.dir, "http-client.ts")}`;
  throw new Error(`no client command for scenario ${scenario}`);
}

export interface ScenarioResult {
  scenario: string;
  ok: boolean;
  /** "Passed: 13/13, 0 failed, 0 warnings" as the suite prints it, or the reason it did not. */
  summary: string;
  output: string;
}

export async function runScenario(scenario: string | ScenarioRun, timeoutMs = 60_000): Promise<ScenarioResult> {
  // The skills scenarios are the next suite's extension scenarios (no spec version).
  const run: ScenarioRun = typeof scenario === "string" ? { suite: SKILLS_SCENARIOS.includes(scenario) ? "next" : "current", scenario } : scenario;
  const home = mkdtempSync(join(tmpdir(), "conformance-"));
  const suite = run.suite === "next" ? [SUITE_NEXT, "--expected-failures", BASELINE_NEXT] : [SUITE, "--expected-failures", BASELINE];
  const version = run.specVersion ? ["--spec-version", run.specVersion] : [];
  try {
    const proc = Bun.spawn(
      [
        BUN,
        suite[0]!,
        "client",
        "--command",
        clientCommand(run.scenario),
        "--scenario",
        run.scenario,
        ...version,
        suite[1]!,
        suite[2]!,
        "-o",
        join(home, "results"),
      ],
      {
        cwd: home,
        env: {
          ...process.env,
          CLAUDE_CONFIG_DIR: join(home, "config"),
          BROWSER: `${BUN} ${join(import.meta.dir, "browser.ts")}`,
          NO_COLOR: "1",
          FORCE_COLOR: "0",
        },
        stdout: "pipe",
        stderr: "pipe",
        timeout: timeoutMs,
      },
    );
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const output = out + err;
    const summary = output.match(/Passed: \d+\/\d+, \d+ failed, \d+ warnings/)?.[0] ?? `exit ${code}${proc.signalCode ? ` (${proc.signalCode})` : ""}`;
    const failed = /Passed: \d+\/\d+, [1-9]\d* failed/.test(summary);
    return { scenario: runLabel(run), ok: code === 0 && !failed, summary, output };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs `scenarios`, `parallel` at a time, in the given order of results. */
export async function runScenarios(scenarios: (string | ScenarioRun)[], parallel = 4): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length) {
      const i = next++;
      results[i] = await runScenario(scenarios[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, scenarios.length) }, worker));
  return results;
}

/** The command line's `--suite <name>`, if any, and its other words (scenarios, `scenario@version`). */
export function commandLine(argv: string[]): { suite?: Suite; words: string[] } {
  const suiteAt = argv.indexOf("--suite");
  if (suiteAt < 0) return { words: argv };
  return { suite: argv[suiteAt + 1] as Suite, words: argv.filter((_, i) => i !== suiteAt && i !== suiteAt + 1) };
}

/** The runs the command line names: `--suite`, then `scenario` or `scenario@version` words; none → everything. */
async function wantedRuns(argv: string[]): Promise<ScenarioRun[]> {
  const { suite, words } = commandLine(argv);
  const current: ScenarioRun[] = [...HTTP_SCENARIOS, ...AUTH_SCENARIOS].map((scenario) => ({ suite: "current", scenario }));
  const next = suite === "current" ? [] : await nextRuns();
  const all = suite === "next" ? next : suite === "current" ? current : [...current, ...next];
  if (!words.length) return all;
  return all.filter((r) => words.some((w) => (w.includes("@") ? w === `${r.scenario}@${r.specVersion}` : w === r.scenario)));
}

/** Scenarios a baseline file lists as expected failures. */
function expectedFailures(path: string): Set<string> {
  return new Set([...readFileSync(path, "utf8").matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!));
}

if (import.meta.main) {
  const runs = await wantedRuns(process.argv.slice(2));
  const expected = { current: expectedFailures(BASELINE), next: expectedFailures(BASELINE_NEXT) };
  const results = await runScenarios(runs, Number(process.env.CONFORMANCE_PARALLEL) || 4);
  for (const suite of ["current", "next"] as const) {
    const mine = results.filter((_, i) => runs[i]!.suite === suite);
    if (!mine.length) continue;
    const core = mine.filter((_, i) => runs.filter((r) => r.suite === suite)[i]!.specVersion !== undefined || suite === "current");
    const extensions = mine.filter((r) => !core.includes(r));
    process.stdout.write(suite === "current" ? "conformance 0.1.16:\n" : "conformance 0.2.0-alpha.12:\n");
    const mark = (r: ScenarioResult) => (r.ok ? "✓" : expected[suite].has(r.scenario.replace(/[@ ].*$/, "")) ? "○ (baseline)" : "✗");
    for (const r of core) process.stdout.write(`${mark(r)} ${r.scenario}: ${r.summary}\n`);
    if (extensions.length) process.stdout.write("  extensions:\n");
    for (const r of extensions) process.stdout.write(`${mark(r)} ${r.scenario}: ${r.summary}\n`);
    process.stdout.write(
      `  ${core.filter((r) => r.ok).length} of ${core.length} scenario runs passed${extensions.length ? `, ${extensions.filter((r) => r.ok).length} of ${extensions.length} extension runs` : ""}\n`,
    );
  }
  const passed = results.filter((r) => r.ok).length;
  const unexpected = results.filter((r, i) => !r.ok && !expected[runs[i]!.suite].has(runs[i]!.scenario));
  process.stdout.write(`conformance: ${passed} of ${results.length} client scenario runs passed, ${unexpected.length} failed outside the baselines\n`);
  if (process.env.VERBOSE) for (const r of results.filter((x) => !x.ok)) process.stdout.write(`\n--- ${r.scenario}\n${r.output}\n`);
  process.exit(unexpected.length ? 1 : 0);
}
