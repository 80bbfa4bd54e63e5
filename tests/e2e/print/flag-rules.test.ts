/**
 * Rules given as flags are rules (Claude Code's syntax through the one rule engine), in -p through
 * the real program and the scripted model: `--disallowedTools "Bash(rm:*)"` denies what it names
 * and nothing else, `--allowedTools "Bash(touch:*)"` lets that command past --permission-mode and
 * nothing else, and a deny from any source beats an allow from any other.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { localSettings, place, projectSettings, resultsOf, runPrint, trust } from "./settings-support.ts";

const DENIED_RM = "Permission to use Bash with command rm -f victim.txt has been denied.";

describe("--disallowedTools with a scoped rule", () => {
  test("denies the matching command as a settings rule would; other commands still run; no warning", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    const run = await runPrint(
      p,
      [reply(toolUse("Bash", { command: "rm -f victim.txt" })), reply(toolUse("Bash", { command: "printf ok" }))],
      ["--disallowedTools", "Bash(rm:*)"],
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: DENIED_RM });
    expect(resultsOf(run, 1)[0]).toMatchObject({ content: "ok" });
    expect(run.stderr).toBe("");
    // A scoped deny blocks calls only: Bash stays on the request.
    expect(run.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("Bash");
  });

  test("in a comma list with a bare name, the scoped rule stays whole (spaces inside the parentheses)", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "rm -f victim.txt" }))], ["--disallowedTools", "Write,Bash(rm -f:*)"]);
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: DENIED_RM });
    expect(run.requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain("Write");
    expect(run.stderr).toBe("");
  });

  test("a rule for a tool we lack is one warning line, and the run goes on", async () => {
    const p = place();
    const run = await runPrint(p, [], ["--disallowedTools", "NoSuchTool(x:*)"]);
    expect(run.code).toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual(['--disallowedTools: no tool named "NoSuchTool" for the rule "NoSuchTool(x:*)"']);
  });

  test("a deny rule given as a flag beats a trusted settings allow for the same command", async () => {
    const p = place();
    trust(p);
    writeFileSync(join(p.dir, "victim.txt"), "x");
    localSettings(p, { permissions: { allow: ["Bash(rm:*)"] } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "rm -f victim.txt" }))], ["--disallowedTools", "Bash(rm:*)"]);
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: DENIED_RM });
  });
});

describe("--allowedTools with a scoped rule", () => {
  test("a rule for a tool we lack is one warning line; a settings rule for one stays silent", async () => {
    const p = place();
    // LSP is a tool of Claude Code's that this agent lacks (NotebookEdit, once lacking, is an opt-in tool now).
    projectSettings(p, { permissions: { deny: ["LSP(./a.ts)"] } });
    const run = await runPrint(p, [], ["--allowedTools", "LSP(./b.ts),Bash(ls:*)"]);
    expect(run.code).toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual(['--allowedTools: no tool named "LSP" for the rule "LSP(./b.ts)"']);
  });

  test("under --permission-mode default it lets the matching command run, and only that one", async () => {
    const p = place();
    const run = await runPrint(
      p,
      [reply(toolUse("Bash", { command: "touch made.txt" })), reply(toolUse("Bash", { command: "printf no" }))],
      ["--permission-mode", "default", "--allowedTools", "Bash(touch:*)"],
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(p.dir, "made.txt"))).toBe(true);
    expect(resultsOf(run, 0)[0]!.is_error).toBeUndefined();
    expect(resultsOf(run, 1)[0]!.is_error).toBe(true);
  });

  test("never beats a deny rule of a settings file, nor an ask rule", async () => {
    const p = place();
    projectSettings(p, { permissions: { deny: ["Bash(touch:*)"], ask: ["Bash(printf:*)"] } });
    const run = await runPrint(
      p,
      [reply(toolUse("Bash", { command: "touch made.txt" })), reply(toolUse("Bash", { command: "printf hi" }))],
      ["--permission-mode", "default", "--allowedTools", "Bash(touch:*) Bash(printf:*)"],
    );
    expect(existsSync(join(p.dir, "made.txt"))).toBe(false);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: "Permission to use Bash with command touch made.txt has been denied." });
    expect(resultsOf(run, 1)[0]).toMatchObject({ is_error: true, content: "Claude requested permissions to use Bash, but you haven't granted it yet." });
  });
});
