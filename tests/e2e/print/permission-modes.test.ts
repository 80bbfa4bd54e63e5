/**
 * The permission modes in -p, through the real program: the one decision every mode shares
 * (lib/agent/policy/decide.ts). -p has nobody to ask, so an "ask" is a refusal; its mode comes from
 * --permission-mode alone, never from a settings `defaultMode` (the home's included).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

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

describe("-p", () => {
  const modes: [string[], Record<string, string>][] = [
    [[], { Write: "ran", Bash: "ran", Read: "ran" }],
    [["--permission-mode", "default"], { Write: notGranted("Write", "default"), Bash: notGranted("Bash", "default"), Read: "ran" }],
    [["--permission-mode", "acceptEdits"], { Write: "ran", Bash: notGranted("Bash", "acceptEdits"), Read: "ran" }],
    [["--permission-mode", "bypassPermissions"], { Write: "ran", Bash: "ran", Read: "ran" }],
    [["--permission-mode", "dontAsk"], { Write: notGranted("Write", "dontAsk"), Bash: notGranted("Bash", "dontAsk"), Read: "ran" }],
    [["--permission-mode", "dontAsk", "--allowedTools", "Bash"], { Write: notGranted("Write", "dontAsk"), Bash: "ran", Read: "ran" }],
  ];
  for (const [flags, want] of modes) {
    test(`${flags.join(" ") || "no --permission-mode"}`, async () => {
      const dir = folder();
      server = startModelServer(calls());
      const r = await runAgent(["-p", "go", ...flags], { cwd: dir, model: server.url });
      expect(r.code).toBe(0);
      expect(await outcome(dir)).toEqual(want);
    });
  }

  test("a settings defaultMode, in the home or the project, never changes how -p treats tools", async () => {
    const dir = folder();
    const home = tempDir("agent-home-");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "settings.json"), JSON.stringify({ permissions: { defaultMode: "dontAsk" } }));
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.local.json"), JSON.stringify({ permissions: { defaultMode: "default" } }));
    server = startModelServer(calls());
    const r = await runAgent(["-p", "go"], { cwd: dir, model: server.url, env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(await outcome(dir)).toEqual({ Write: "ran", Bash: "ran", Read: "ran" });
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("ran\n");
  });
});
