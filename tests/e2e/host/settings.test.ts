/**
 * Settings in host mode (stream-json, the Agent SDK's host protocol) through the real program: the
 * project's deny rules and PreToolUse hooks apply as in -p, and an ask rule is refused with Claude
 * Code's words when there is no `--permission-prompt-tool stdio` to ask the host.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";
import { hookScript } from "../print/settings-support.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const HOST = ["--output-format", "stream-json", "--input-format", "stream-json"];
const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null });
const resultText = (i: number) => server!.requests[i]!.body.messages.at(-1).content[0].content;

describe("host mode with settings", () => {
  test("a deny rule, a PreToolUse hook's exit 2 and an ask rule with no host to ask", async () => {
    const dir = tempDir();
    const script = hookScript("echo not here >&2; exit 2");
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, "victim.txt"), "x");
    writeFileSync(
      join(dir, ".claude", "settings.json"),
      JSON.stringify({
        permissions: { deny: ["Bash(rm:*)"], ask: ["Bash(echo:*)"] },
        hooks: { PreToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: script }] }] },
      }),
    );
    server = startModelServer([
      reply(toolUse("Bash", { command: "rm victim.txt" })),
      reply(toolUse("Bash", { command: "echo hi" })),
      reply(toolUse("Write", { file_path: join(dir, "w.txt"), content: "x" })),
      reply(text("done")),
    ]);
    const r = await runAgent(HOST, { cwd: dir, model: server.url, stdin: `${user("go")}\n` });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(existsSync(join(dir, "w.txt"))).toBe(false);
    expect(resultText(1)).toBe("Permission to use Bash with command rm victim.txt has been denied.");
    expect(resultText(2)).toBe("Claude requested permissions to use Bash, but you haven't granted it yet.");
    expect(resultText(3)).toBe(`PreToolUse:Write hook error: [${script}]: not here\n`);
  });
});
