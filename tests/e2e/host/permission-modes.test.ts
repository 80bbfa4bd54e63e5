/**
 * The permission modes in host mode, through the real program: the one decision every mode shares
 * (lib/agent/policy/decide.ts). Without `--permission-prompt-tool stdio` nobody is asked and an
 * "ask" is a refusal; dontAsk never sends `can_use_tool`.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const HOST = ["--output-format", "stream-json", "--input-format", "stream-json"];
const user = (content: string) => `${JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null })}\n`;

/** One reply calling Write, Bash and Read at once, then a closing text. */
const calls = () => [
  reply(toolUse("Write", { file_path: "a.txt", content: "A" }), toolUse("Bash", { command: "echo ran > b.txt" }), toolUse("Read", { file_path: "r.txt" })),
  reply(text("ok")),
];

/** What happened to each call: "ran" or the refusal the model read. */
async function outcome(dir: string): Promise<Record<string, string>> {
  const results = server!.requests[1]!.body.messages.at(-1).content;
  const read = JSON.stringify(results[2].content).includes("readable") ? "ran" : String(results[2].content);
  return {
    Write: existsSync(join(dir, "a.txt")) ? "ran" : String(results[0].content),
    Bash: existsSync(join(dir, "b.txt")) ? "ran" : String(results[1].content),
    Read: read,
  };
}

function folder(): string {
  const dir = tempDir();
  writeFileSync(join(dir, "r.txt"), "readable");
  return dir;
}

const notGranted = (tool: string, mode: string) => `Permission to use ${tool} was not granted (--permission-mode ${mode}).`;

describe("host mode without a host to ask", () => {
  const modes: [string, Record<string, string>][] = [
    ["default", { Write: notGranted("Write", "default"), Bash: notGranted("Bash", "default"), Read: "ran" }],
    ["acceptEdits", { Write: "ran", Bash: notGranted("Bash", "acceptEdits"), Read: "ran" }],
    ["bypassPermissions", { Write: "ran", Bash: "ran", Read: "ran" }],
    ["dontAsk", { Write: notGranted("Write", "dontAsk"), Bash: notGranted("Bash", "dontAsk"), Read: "ran" }],
  ];
  for (const [mode, want] of modes) {
    test(mode, async () => {
      const dir = folder();
      server = startModelServer(calls());
      const r = await runAgent([...HOST, "--permission-mode", mode], { cwd: dir, model: server.url, stdin: user("go") });
      expect(r.code).toBe(0);
      expect(await outcome(dir)).toEqual(want);
    });
  }

  test("dontAsk refuses without sending can_use_tool, even when the host takes questions", async () => {
    const dir = folder();
    server = startModelServer(calls());
    const r = await runAgent([...HOST, "--permission-mode", "dontAsk", "--permission-prompt-tool", "stdio"], {
      cwd: dir,
      model: server.url,
      stdin: user("go"),
    });
    expect(r.stdout).not.toContain("can_use_tool");
    expect(await outcome(dir)).toEqual({ Write: notGranted("Write", "dontAsk"), Bash: notGranted("Bash", "dontAsk"), Read: "ran" });
  });
});
