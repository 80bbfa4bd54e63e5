/**
 * What the sandbox keys mean, in -p through the real program: autoAllowBashIfSandboxed skips only
 * the mode's question (deny rules still hold); dangerouslyDisableSandbox is refused where nobody is
 * asked, and ignored without allowUnsandboxedCommands; excludedCommands run outside only when every
 * command of the chain matches.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { sandboxRuns } from "../../support/sandbox.ts";
import { place, resultsOf, runPrint } from "./settings-support.ts";

const runs = sandboxRuns("the sandbox keys tests");
const bash = (command: string, extra: Record<string, unknown> = {}) => reply(toolUse("Bash", { command, ...extra }));
const settings = (sandbox: unknown, permissions: unknown = {}) => [
  "--settings",
  JSON.stringify({ sandbox: { enabled: true, ...(sandbox as object) }, permissions }),
];
const resultOf = (run: Awaited<ReturnType<typeof runPrint>>, n: number) => resultsOf(run, n)[0] ?? { content: "", is_error: undefined };

describe.skipIf(!runs)("the sandbox keys", () => {
  test("autoAllowBashIfSandboxed runs a sandboxed command the mode would refuse; a deny rule still refuses", async () => {
    const p = place();
    const run = await runPrint(
      p,
      [bash("echo ran"), bash("rm -f nothing.txt")],
      ["--permission-mode", "dontAsk", ...settings({ autoAllowBashIfSandboxed: true }, { deny: ["Bash(rm:*)"] })],
    );
    expect(resultOf(run, 0)).toMatchObject({ content: "ran" });
    expect(resultOf(run, 1).is_error).toBe(true);
    expect(String(resultOf(run, 1).content)).toContain("has been denied");
    const without = await runPrint(place(), [bash("echo ran")], ["--permission-mode", "dontAsk", ...settings({})]);
    expect(resultOf(without, 0).is_error).toBe(true);
  });

  test("dangerouslyDisableSandbox is refused in -p; without allowUnsandboxedCommands it is ignored and the call runs sandboxed", async () => {
    const outside = join(tempDir("agent-outside-"), "escaped.txt");
    const refused = await runPrint(place(), [bash(`touch ${outside}`, { dangerouslyDisableSandbox: true })], settings({}));
    expect(resultOf(refused, 0).is_error).toBe(true);
    expect(String(resultOf(refused, 0).content)).toContain("asks to run outside the sandbox");
    expect(existsSync(outside)).toBe(false);
    const ignored = await runPrint(place(), [bash(`touch ${outside}`, { dangerouslyDisableSandbox: true })], settings({ allowUnsandboxedCommands: false }));
    expect(String(resultOf(ignored, 0).content)).toContain("Read-only file system");
    expect(existsSync(outside)).toBe(false);
  });

  test("Edit rules reach the sandbox: a deny keeps a project folder read-only, a folder allow opens one outside", async () => {
    const p = place();
    const open = tempDir("agent-open-");
    mkdirSync(join(p.dir, "locked"));
    // A script names no path a rule could see: only the sandbox stands in the way.
    writeFileSync(join(p.dir, "a.sh"), "echo x > locked/a.txt\n");
    writeFileSync(join(p.dir, "b.sh"), `echo x > ${join(open, "b.txt")}\n`);
    const run = await runPrint(p, [bash("sh a.sh"), bash("sh b.sh")], settings({}, { deny: ["Edit(./locked/**)"], allow: [`Edit(/${open}/**)`] }));
    expect(existsSync(join(p.dir, "locked", "a.txt"))).toBe(false);
    expect(String(resultOf(run, 0).content)).toContain("Read-only file system");
    expect(existsSync(join(open, "b.txt"))).toBe(true);
  });

  test("filesystem.allowWrite through a symbolic link opens the folder it points to", async () => {
    const target = tempDir("agent-open-");
    const link = join(tempDir("agent-links-"), "open");
    symlinkSync(target, link);
    const run = await runPrint(place(), [bash(`echo x > ${link}/c.txt && echo wrote`)], settings({ filesystem: { allowWrite: [link] } }));
    expect(resultOf(run, 0)).toMatchObject({ content: "wrote" });
    expect(existsSync(join(target, "c.txt"))).toBe(true);
  });

  test("excludedCommands run outside only when every command of the chain matches", async () => {
    const dir = tempDir("agent-outside-");
    const run = await runPrint(
      place(),
      [bash(`touch ${join(dir, "a.txt")}`), bash(`touch ${join(dir, "b.txt")} && echo hi`), bash(`touch ${join(dir, "c.txt")} | cat`)],
      settings({ excludedCommands: ["touch:*", "Bash(cat)"] }),
    );
    expect(resultOf(run, 0).is_error).toBeFalsy();
    expect(existsSync(join(dir, "a.txt"))).toBe(true);
    expect(String(resultOf(run, 1).content)).toContain("Read-only file system");
    expect(existsSync(join(dir, "b.txt"))).toBe(false);
    expect(existsSync(join(dir, "c.txt"))).toBe(true);
  });
});
