/**
 * Limits on hooks, through -p: a hook's stdout and stderr are capped as Bash output is, with the
 * cut said; a PreToolUse answer cut off so that it no longer parses counts as a deny.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { hook, hookScript, place, resultsOf, runPrint, userSettings } from "./settings-support.ts";

const CAP = 30_000;
const HUGE = 200_000;

describe("hook output is capped", () => {
  test("exit 2 with a huge stderr: the model gets at most the cap, and says where it was cut", async () => {
    const p = place();
    const script = hookScript(`yes x | head -c ${HUGE} >&2; exit 2`);
    userSettings(p, { hooks: hook("PreToolUse", script, "Bash") });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "touch made" }))]);
    expect(run.code).toBe(0);
    const result = resultsOf(run, 0)[0]!;
    expect(result.is_error).toBe(true);
    const content = String(result.content);
    expect(content.length).toBeLessThan(CAP + 500);
    expect(content).toContain(`[hook output cut: ${CAP} of ${HUGE} characters kept]`);
    expect(existsSync(join(p.dir, "made"))).toBe(false);
  });

  test("a PreToolUse allow cut off past the cap no longer parses: the call is denied, with one line", async () => {
    const p = place();
    const answer = join(p.dir, "answer.json");
    writeFileSync(
      answer,
      JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "y".repeat(HUGE) } }),
    );
    userSettings(p, { hooks: hook("PreToolUse", hookScript(`cat ${answer}`), "Bash") });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "touch made" }))], ["--permission-mode", "bypassPermissions"]);
    expect(run.code).toBe(0);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
    expect(existsSync(join(p.dir, "made"))).toBe(false);
    expect(run.stderr).toContain("printed more than the output cap and its answer no longer parses; the call is denied");
  });

  test("a PreToolUse answer under the cap still works as before", async () => {
    const p = place();
    const answer = join(p.dir, "answer.json");
    writeFileSync(
      answer,
      JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "short no" } }),
    );
    userSettings(p, { hooks: hook("PreToolUse", hookScript(`cat ${answer}`), "Bash") });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "touch made" }))]);
    expect(String(resultsOf(run, 0)[0]!.content)).toContain("short no");
    expect(existsSync(join(p.dir, "made"))).toBe(false);
  });
});
