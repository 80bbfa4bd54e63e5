/**
 * When the sandbox cannot start (a bwrap on PATH that cannot make its namespaces): one stderr line
 * and Bash runs outside, unless failIfUnavailable counts, which is exit 1 before any model call.
 * In -p it counts from the project's files, --settings or AGENT_SANDBOX_FAIL_IF_UNAVAILABLE=1,
 * never from the home. The init event's sandbox_enabled says whether Bash runs sandboxed, and is
 * absent when no settings file speaks of the sandbox.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { sandboxRuns } from "../../support/sandbox.ts";
import { place, projectSettings, runPrint, userSettings } from "./settings-support.ts";

/** A PATH whose first `bwrap` refuses, as one on a kernel without user namespaces does. */
function refusingBwrapPath(): string {
  const dir = tempDir("agent-fake-bwrap-");
  writeFileSync(join(dir, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n");
  chmodSync(join(dir, "bwrap"), 0o755);
  return `${dir}:${process.env.PATH}`;
}

const initOf = (stdout: string) => JSON.parse(stdout.split("\n")[0]!);

describe("a sandbox that cannot start", () => {
  test("enabled by the project: one stderr line, and Bash runs outside it", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true } });
    const outside = join(tempDir("agent-outside-"), "written.txt");
    const run = await runPrint(p, [reply(toolUse("Bash", { command: `echo hi > ${outside}` }))], [], { env: { PATH: refusingBwrapPath() } });
    expect(run.code).toBe(0);
    expect(run.stderr.split("\n").filter((l) => l.includes("sandbox"))).toEqual([
      "sandbox: cannot start (bwrap cannot create its namespaces (bwrap: No permissions to creating new namespace)); commands run without it",
    ]);
    expect(existsSync(outside)).toBe(true);
  });

  for (const [where, setup, args, env] of [
    ["the project's settings", (p: ReturnType<typeof place>) => projectSettings(p, { sandbox: { enabled: true, failIfUnavailable: true } }), [], {}],
    ["--settings", () => {}, ["--settings", '{"sandbox":{"enabled":true,"failIfUnavailable":true}}'], {}],
    [
      "the process environment",
      (p: ReturnType<typeof place>) => userSettings(p, { sandbox: { enabled: true } }),
      [],
      { AGENT_SANDBOX_FAIL_IF_UNAVAILABLE: "1" },
    ],
  ] as const) {
    test(`failIfUnavailable from ${where}: exit 1 before any model call`, async () => {
      const p = place();
      setup(p);
      const run = await runPrint(p, [], [...args], { env: { PATH: refusingBwrapPath(), ...env } });
      expect(run.code).toBe(1);
      expect(run.requests).toEqual([]);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("error: the sandbox is enabled with failIfUnavailable, but it cannot start");
    });
  }

  test("failIfUnavailable from the home does not count in -p: one line, exit 0, the answer", async () => {
    const p = place();
    userSettings(p, { sandbox: { enabled: true, failIfUnavailable: true } });
    const run = await runPrint(p, [], [], { env: { PATH: refusingBwrapPath() } });
    expect([run.code, run.stdout]).toEqual([0, "done\n"]);
    expect(run.stderr.split("\n").filter((l) => l.includes("sandbox")).length).toBe(1);
  });
});

describe("the init event's sandbox_enabled", () => {
  test("absent without a sandbox key; false when it cannot start; true when Bash runs in it", async () => {
    const stream = ["--output-format", "stream-json", "--verbose"];
    const none = await runPrint(place(), [], stream);
    expect(initOf(none.stdout)).not.toHaveProperty("sandbox_enabled");
    const off = place();
    projectSettings(off, { sandbox: { enabled: true } });
    expect(initOf((await runPrint(off, [], stream, { env: { PATH: refusingBwrapPath() } })).stdout).sandbox_enabled).toBe(false);
    if (!sandboxRuns("sandbox_enabled: true")) return;
    const on = place();
    projectSettings(on, { sandbox: { enabled: true } });
    expect(initOf((await runPrint(on, [], stream)).stdout).sandbox_enabled).toBe(true);
  });
});
