import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentRuntime } from "../../../lib/agent/runtime.ts";
import { runBuiltin, type ReplState } from "../../../lib/cli/repl-commands.ts";
import { FileSnapshots } from "../../../lib/tools/file-snapshots.ts";
import { ToolSession } from "../../../lib/tools/session.ts";
import { tempDir } from "../../support/run.ts";

describe("FileSnapshots", () => {
  test("only files read are guarded; a refresh takes only the paths it is given", () => {
    const dir = tempDir();
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    writeFileSync(a, "1");
    writeFileSync(b, "1");
    const files = new FileSnapshots();
    files.read(a);
    appendFileSync(b, "2");
    expect(() => files.assertUnchanged(b)).not.toThrow();
    expect(files.unchanged()).toEqual([a]);
    appendFileSync(a, "2");
    expect(files.unchanged()).toEqual([]);
    files.refresh([]);
    expect(() => files.assertUnchanged(a)).toThrow("size 1 → 2 bytes");
    files.wrote(b);
    expect(() => files.assertUnchanged(b)).not.toThrow();
    files.forget(a);
    expect(() => files.assertUnchanged(a)).not.toThrow();
  });
});

describe("ToolSession", () => {
  test("the shell directory falls back once to the project directory when it is gone", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    const session = new ToolSession(dir);
    session.shellCwd = join(dir, "sub");
    expect(session.shellDirectory()).toEqual({ cwd: join(dir, "sub") });
    rmSync(join(dir, "sub"), { recursive: true });
    expect(session.shellDirectory().note).toContain("no longer exists");
    expect(session.shellDirectory()).toEqual({ cwd: dir });
  });

  test("/clear starts the tools' memory afresh", () => {
    const state: ReplState = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], tools: new ToolSession("/project") };
    state.tools.shellCwd = "/elsewhere";
    expect(runBuiltin("clear", "", {} as AgentRuntime, state)).toBe("Conversation cleared.\n");
    expect([state.messages.length, state.tools.shellCwd]).toEqual([0, "/project"]);
  });
});
