/**
 * Background work in the OS sandbox (bubblewrap), in -p through the real program: a background
 * Bash command and a Monitor run in the same sandbox a foreground Bash call with the same input
 * would, so a write outside the project fails there and one inside works, and a process that left
 * the command's group (setsid) still ends with it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse, type RecordedRequest } from "../../support/model-server.ts";
import { processesWith, sandboxRuns } from "../../support/sandbox.ts";
import { place, projectSettings, runPrint } from "./settings-support.ts";

const runs = sandboxRuns("the sandboxed background work tests");

/** Every user message's text after the first request, tool results included. */
const userTexts = (requests: RecordedRequest[]) => JSON.stringify(requests.slice(1).map((r) => r.body.messages.at(-1)));

describe.skipIf(!runs)("background work in the sandbox", () => {
  test("a background command and a Monitor cannot write outside the project; inside they can", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true } });
    const marker = `agent-bg-sbx-${process.pid}-${Date.now()}`;
    const run = await runPrint(
      p,
      [
        reply(toolUse("Bash", { command: `touch /etc/${marker}; touch inside-bg.txt && echo made`, run_in_background: true, description: "bg write" })),
        reply(toolUse("Monitor", { command: `touch /etc/${marker}-m 2>&1; touch inside-m.txt && echo made-m`, description: "mon write", timeout_ms: 60_000 })),
      ],
      [],
      { env: { AGENT_BACKGROUND_TASKS: "1" } },
    );
    expect(run.code).toBe(0);
    expect(existsSync(`/etc/${marker}`)).toBe(false);
    expect(existsSync(`/etc/${marker}-m`)).toBe(false);
    expect(existsSync(join(p.dir, "inside-bg.txt"))).toBe(true);
    expect(existsSync(join(p.dir, "inside-m.txt"))).toBe(true);
    const texts = userTexts(run.requests);
    const file = texts.match(/written to: (\S+\.output)/)![1]!;
    expect(readFileSync(file, "utf8")).toContain("Read-only file system");
    expect(texts).toContain("Read-only file system");
    expect(texts).toContain("made-m");
  });

  test("a process that leaves its group (setsid) still ends with the task: the sandbox's PID namespace holds it", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true } });
    const marker = `agentbgsetsid${process.pid}`;
    const run = await runPrint(
      p,
      [reply(toolUse("Bash", { command: `setsid -f bash -c 'exec -a ${marker} sleep 300'; echo left`, run_in_background: true }))],
      [],
      { env: { AGENT_BACKGROUND_TASKS: "1" } },
    );
    expect(run.code).toBe(0);
    expect(userTexts(run.requests)).toContain("completed (exit code 0)");
    expect(processesWith(marker)).toEqual([]);
  });
});
