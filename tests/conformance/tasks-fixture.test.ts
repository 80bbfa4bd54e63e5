/**
 * Our SEP-2663 fixture (fixtures/servers/tasks2026-server.ts over HTTP) against the server-side
 * `tasks-*` scenarios of conformance 0.2.0-alpha.12, so the client's task tests talk to a server
 * the suite calls conformant. `tasks-status-notifications` is skipped by the suite itself
 * (pending its subscriptions/listen rewrite), so it reports no checks.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { stopTasks2026, tasks2026Entry } from "../support/tasks2026.ts";

const ROOT = resolve(import.meta.dir, "../..");
const SUITE_NEXT = join(ROOT, "node_modules/@modelcontextprotocol/conformance-next/dist/index.js");
const SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];

let url = "";
const out = mkdtempSync(join(tmpdir(), "tasks-conformance-"));
beforeAll(async () => {
  url = String((await tasks2026Entry("http", join(out, "received.log"))).url);
});
afterAll(() => {
  stopTasks2026();
  rmSync(out, { recursive: true, force: true });
});

/** Every check the scenario ran, as `id: STATUS` (from the suite's checks.json). */
async function checks(scenario: string): Promise<string[]> {
  const dir = join(out, scenario);
  const proc = Bun.spawn([process.execPath, SUITE_NEXT, "server", "--url", url, "--scenario", scenario, "-o", dir], { stdout: "pipe", stderr: "pipe" });
  await proc.exited;
  const file = readdirSync(dir, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("checks.json"));
  if (!file) throw new Error(`${scenario}: no checks.json (${await new Response(proc.stdout).text()})`);
  return (JSON.parse(readFileSync(join(dir, file), "utf8")) as { id: string; status: string }[]).map((c) => `${c.id}: ${c.status}`);
}

for (const scenario of SCENARIOS) {
  test(`${scenario}: no check fails or warns`, async () => {
    const ran = await checks(scenario);
    expect(ran.filter((c) => !c.endsWith(": SUCCESS") && !(scenario === "tasks-status-notifications" && c.endsWith(": SKIPPED")))).toEqual([]);
    expect(ran.length).toBeGreaterThan(0);
  }, 60_000);
}
