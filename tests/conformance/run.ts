/**
 * Runs client scenarios of the MCP conformance suite (`@modelcontextprotocol/conformance`, pinned)
 * against our client, several at once, and prints one line per scenario and the total.
 * `bun tests/conformance/run.ts [scenario…]` (the transport, elicitation and auth client scenarios by default); exit 1 when
 * a scenario fails that the baseline (baseline.yml, the suite's `--expected-failures`) does not list.
 * Each scenario gets a fresh config folder (so no token leaks between them) and the `$BROWSER`
 * stand-in, which follows the suite's authorization redirect like a person approving at once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const BUN = process.execPath;
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
/** The newer suite (0.2.0-alpha.12, installed as conformance-next): its skills-over-MCP scenarios. */
const SUITE_NEXT = join(ROOT, "node_modules/@modelcontextprotocol/conformance-next/dist/index.js");
export const BASELINE = join(import.meta.dir, "baseline.yml");

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
/** Client scenarios of the suite that are not run yet, with the reason the total line prints. */
export const NOT_RUN: Record<string, string> = {};

/** The client command for a scenario; the suite appends the server URL. */
export function clientCommand(scenario: string): string {
  if (scenario.startsWith("auth/"))
    return `${BUN} ${join(import.meta.dir, process.env.CONFORMANCE_CLIENT === "provider" ? "auth-client.ts" : "agent-client.ts")}`;
  if (HTTP_SCENARIOS.includes(scenario)) return `${BUN} ${join(import.meta.dir, "http-client.ts")}`;
  if (SKILLS_SCENARIOS.includes(scenario)) return `${BUN} ${join(import.meta.dir, "skills-client.ts")}`;
  throw new Error(`no client command for scenario ${scenario}`);
}

export interface ScenarioResult {
  scenario: string;
  ok: boolean;
  /** "Passed: 13/13, 0 failed, 0 warnings" as the suite prints it, or the reason it did not. */
  summary: string;
  output: string;
}

export async function runScenario(scenario: string, timeoutMs = 60_000): Promise<ScenarioResult> {
  const home = mkdtempSync(join(tmpdir(), "conformance-"));
  try {
    const proc = Bun.spawn(
      [
        BUN,
        SKILLS_SCENARIOS.includes(scenario) ? SUITE_NEXT : SUITE,
        "client",
        "--command",
        clientCommand(scenario),
        "--scenario",
        scenario,
        "--expected-failures",
        BASELINE,
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
    return { scenario, ok: code === 0 && !failed, summary, output };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs `scenarios`, `parallel` at a time, in the given order of results. */
export async function runScenarios(scenarios: string[], parallel = 4): Promise<ScenarioResult[]> {
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

if (import.meta.main) {
  const wanted = process.argv.slice(2);
  const results = await runScenarios(
    wanted.length ? wanted : [...HTTP_SCENARIOS, ...SKILLS_SCENARIOS, ...AUTH_SCENARIOS],
    Number(process.env.CONFORMANCE_PARALLEL) || 4,
  );
  for (const r of results) process.stdout.write(`${r.ok ? "✓" : "✗"} ${r.scenario}: ${r.summary}\n`);
  const passed = results.filter((r) => r.ok).length;
  process.stdout.write(`conformance: ${passed} of ${results.length} client scenarios passed\n`);
  if (!wanted.length && Object.keys(NOT_RUN).length) {
    const total = results.length + Object.keys(NOT_RUN).length;
    for (const [scenario, why] of Object.entries(NOT_RUN)) process.stdout.write(`- ${scenario}: not run (${why})\n`);
    process.stdout.write(`of the suite's ${total} client scenarios: ${passed} pass, ${Object.keys(NOT_RUN).length} not run\n`);
  }
  if (process.env.VERBOSE) for (const r of results.filter((x) => !x.ok)) process.stdout.write(`\n--- ${r.scenario}\n${r.output}\n`);
  process.exit(passed === results.length ? 0 : 1);
}
