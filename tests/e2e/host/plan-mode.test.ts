/**
 * Plan mode in host mode through the real program's stream-json protocol (`--permission-mode
 * plan`, no host to ask): each class plan mode allows runs and each class it refuses is refused
 * with plan mode's message, as in -p and the session: the one decision serves every mode.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Block, type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const HOST = ["--output-format", "stream-json", "--input-format", "stream-json", "--permission-mode", "plan"];
const user = (content: string) => `${JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null })}\n`;

async function hostCall(call: Block) {
  const dir = tempDir();
  writeFileSync(join(dir, "r.txt"), "readable");
  server = startModelServer([reply(call), reply(text("ok"))]);
  const r = await runAgent(HOST, { cwd: dir, model: server.url, stdin: user("plan"), env: { CLAUDE_CONFIG_DIR: tempDir("agent-config-") } });
  expect(r.code).toBe(0);
  return { dir, result: server.requests[1]!.body.messages.at(-1).content[0] as { content: unknown; is_error?: boolean } };
}

describe("host mode, --permission-mode plan", () => {
  const runs: [string, Block][] = [
    ["Read", toolUse("Read", { file_path: "r.txt" })],
    ["Grep", toolUse("Grep", { pattern: "readable", output_mode: "content" })],
    ["a read-only Bash command", toolUse("Bash", { command: "cat r.txt | wc -l" })],
  ];
  for (const [what, call] of runs)
    test(`${what} runs`, async () => {
      const { result } = await hostCall(call);
      expect(result.is_error).toBeFalsy();
    });

  const refused: [string, Block][] = [
    ["Write of another file", toolUse("Write", { file_path: "made.txt", content: "x" })],
    ["Bash that writes", toolUse("Bash", { command: "touch made.txt" })],
    ["Bash with find -delete", toolUse("Bash", { command: "find . -name made.txt -delete" })],
    ["Bash with a redirection", toolUse("Bash", { command: "echo x > made.txt" })],
    ["ExitPlanMode with nobody to approve", toolUse("ExitPlanMode", {})],
  ];
  for (const [what, call] of refused)
    test(`${what} is refused`, async () => {
      const { dir, result } = await hostCall(call);
      expect(result.is_error).toBe(true);
      expect(existsSync(join(dir, "made.txt"))).toBe(false);
      if (what !== "ExitPlanMode with nobody to approve") expect(JSON.stringify(result.content)).toContain("Plan mode is on");
      else expect(JSON.stringify(result.content)).toContain("approval");
    });

  test("ExitPlanMode outside plan mode is one error result saying plan mode is not on", async () => {
    server = startModelServer([reply(toolUse("ExitPlanMode", {})), reply(text("ok"))]);
    const stream = ["--output-format", "stream-json", "--input-format", "stream-json", "--permission-prompt-tool", "stdio"];
    const r = await runAgent(stream, { cwd: tempDir(), model: server.url, stdin: user("go") });
    expect(r.code).toBe(0);
    // Refused by the decision itself: the host is not asked.
    expect(r.stdout).not.toContain("can_use_tool");
    expect(server.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ is_error: true, content: expect.stringContaining("Plan mode is not on") });
  });

  test("AskUserQuestion with more options than the schema allows is one error result; the host is not asked", async () => {
    const opt = (label: string) => ({ label, description: label });
    const questions = [{ question: "Which?", header: "Pick", options: ["a", "b", "c", "d", "e"].map(opt), multiSelect: false }];
    server = startModelServer([reply(toolUse("AskUserQuestion", { questions })), reply(text("ok"))]);
    const stream = ["--output-format", "stream-json", "--input-format", "stream-json", "--permission-prompt-tool", "stdio"];
    const r = await runAgent(stream, { cwd: tempDir(), model: server.url, stdin: user("go") });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("can_use_tool");
    expect(server.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ is_error: true, content: expect.stringContaining("must hold 2 to 4 options") });
  });
});
