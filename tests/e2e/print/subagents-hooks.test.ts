/**
 * Settings inside subagents through the real program in -p: PreToolUse and PostToolUse hooks of a
 * subagent's calls see `agent_id` and `agent_type`; SubagentStart and SubagentStop fire with
 * Claude Code's fields; a deny rule refuses a subagent's call as it refuses the parent's.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { hook, hookScript, place, projectSettings, resultsOf, runPrint, trust } from "./settings-support.ts";

const AGENTS = JSON.stringify({ reviewer: { description: "Reviews code", prompt: "REVIEW", tools: ["Read", "Bash"] } });
const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

test("hooks see a subagent's calls with agent_id and agent_type; SubagentStart and SubagentStop fire", async () => {
  const p = place();
  const log = join(p.dir, "hooks.jsonl");
  writeFileSync(join(p.dir, "a.txt"), "hello\n");
  const record = hookScript(`cat >> ${log}; echo >> ${log}`);
  projectSettings(p, {
    hooks: { ...hook("PreToolUse", record), ...hook("PostToolUse", record), ...hook("SubagentStart", record), ...hook("SubagentStop", record, "reviewer") },
  });
  const run = await runPrint(
    p,
    [
      reply(toolUse("Agent", { description: "r", prompt: "read a.txt", subagent_type: "reviewer" })),
      reply(toolUse("Read", { file_path: join(p.dir, "a.txt") })),
      reply(text("FINAL")),
    ],
    ["--agents", AGENTS],
  );
  expect(run.stdout).toBe("done\n");
  const events = lines(log);
  const agentId = events.find((e) => e.hook_event_name === "SubagentStart")?.agent_id;
  expect(agentId).toMatch(/^a[0-9a-f]{16}$/);
  expect(events.map((e) => [e.hook_event_name, e.tool_name, e.agent_type])).toEqual([
    ["PreToolUse", "Agent", undefined],
    ["SubagentStart", undefined, "reviewer"],
    ["PreToolUse", "Read", "reviewer"],
    ["PostToolUse", "Read", "reviewer"],
    ["SubagentStop", undefined, "reviewer"],
    ["PostToolUse", "Agent", undefined],
  ]);
  expect(events.filter((e) => e.agent_type).every((e) => e.agent_id === agentId)).toBe(true);
  const stop = events.find((e) => e.hook_event_name === "SubagentStop");
  expect(stop).toMatchObject({ last_assistant_message: "FINAL", stop_hook_active: false });
  expect(stop.agent_transcript_path).toEndWith(`/subagents/agent-${agentId}.jsonl`);
});

test("a settings deny rule refuses a subagent's call as it refuses the parent's", async () => {
  const p = place();
  projectSettings(p, { permissions: { deny: ["Bash(rm:*)"] } });
  writeFileSync(join(p.dir, "victim.txt"), "x");
  const run = await runPrint(
    p,
    [
      reply(toolUse("Agent", { description: "r", prompt: "remove it", subagent_type: "reviewer" })),
      reply(toolUse("Bash", { command: "rm victim.txt" })),
      reply(text("could not")),
    ],
    ["--agents", AGENTS],
  );
  expect(run.stdout).toBe("done\n");
  expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
  const refused = resultsOf(run, 1)[0]!;
  expect(refused.is_error).toBe(true);
  expect(String(refused.content)).toContain("denied");
});

test("permissionMode in a definition tightens the run's mode; it loosens only from a file the user trusted", async () => {
  const p = place();
  const script = () => [
    reply(toolUse("Agent", { description: "r", prompt: "touch it", subagent_type: "m" })),
    reply(toolUse("Bash", { command: "touch made.txt" })),
    reply(text("tried")),
  ];
  const flagged = (mode: string, args: string[]) =>
    runPrint(p, script(), ["--agents", JSON.stringify({ m: { description: "d", prompt: "p", tools: ["Bash"], permissionMode: mode } }), ...args]);
  // -p without --permission-mode runs everything; the agent's `default` asks, and nobody can answer.
  const tightened = await flagged("default", []);
  expect(String(resultsOf(tightened, 1)[0]!.content)).toBe("Permission to use Bash was not granted (--permission-mode default).");
  expect(existsSync(join(p.dir, "made.txt"))).toBe(false);
  const plain = await flagged("acceptEdits", ["--permission-mode", "bypassPermissions"]);
  expect(resultsOf(plain, 1)[0]!.is_error).toBe(true);
  // A repository's agent file loosens nothing in a folder the user has not trusted...
  mkdirSync(join(p.dir, ".claude", "agents"), { recursive: true });
  writeFileSync(join(p.dir, ".claude", "agents", "m.md"), "---\nname: m\ndescription: d\ntools: Bash\npermissionMode: bypassPermissions\n---\np\n");
  const untrusted = await runPrint(p, script(), ["--permission-mode", "default"]);
  expect(resultsOf(untrusted, 1)[0]!.is_error).toBe(true);
  expect(existsSync(join(p.dir, "made.txt"))).toBe(false);
  // ...and its mode applies as written once they have.
  trust(p);
  const trusted = await runPrint(p, script(), ["--permission-mode", "default"]);
  expect(resultsOf(trusted, 1)[0]!.is_error).toBeUndefined();
  expect(existsSync(join(p.dir, "made.txt"))).toBe(true);
  rmSync(join(p.dir, "made.txt"));
  // So does one the user gave on the command line.
  const fromFlag = await flagged("bypassPermissions", ["--permission-mode", "default"]);
  expect(resultsOf(fromFlag, 1)[0]!.is_error).toBeUndefined();
  expect(existsSync(join(p.dir, "made.txt"))).toBe(true);
});
