/**
 * Cases the documentation leaves open, settled side by side against Claude Code's own executable
 * (from the Agent SDK package, offline, same files, same scripted model): the -p exit code when
 * UserPromptSubmit blocks or a hook returns `continue: false`, and the texts the model reads for a
 * deny rule, an ask rule, a PreToolUse exit 2 and a Stop hook's block. Skipped when the executable
 * is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, type Step, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";
import { hook, hookScript, projectSettings } from "./settings-support.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);
const SLOW = 90_000;

interface Side {
  code: number;
  stdout: string;
  stderr: string;
  /** Per request, the last user message's tool_result and text contents (Claude Code's system-role notes are left out). */
  lasts: string[][];
}

const lastUser = (messages: { role: string; content: unknown }[]): string[] => {
  const m = [...messages].reverse().find((x) => x.role === "user");
  if (!m) return [];
  if (typeof m.content === "string") return [m.content];
  return (m.content as { type: string; text?: string; content?: unknown }[])
    .filter((b) => b.type === "tool_result" || (b.type === "text" && !b.text?.startsWith("<system-reminder>")))
    .map((b) => (b.type === "tool_result" ? String(b.content) : b.text!));
};

/** Runs one program in a fresh copy of the same project, against its own scripted model. */
async function side(program: "claude" | "agent", settings: (dir: string) => unknown, script: Step[]): Promise<Side> {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  writeFileSync(join(dir, "victim.txt"), "x");
  projectSettings({ dir, config: home }, settings(dir));
  const server = startModelServer([...script, reply(text("done"))]);
  try {
    let r: { code: number; stdout: string; stderr: string };
    if (program === "agent") r = await runAgent(["-p", "hello"], { cwd: dir, model: server.url, env: { HOME: home } });
    else {
      const env = { ...baseEnv(server.url), HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } as Record<string, string>;
      delete env.CLAUDE_CONFIG_DIR;
      const proc = Bun.spawn([CLAUDE, "-p", "hello"], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      r = { code, stdout, stderr };
    }
    return { ...r, lasts: server.requests.map((q) => lastUser(q.body.messages)) };
  } finally {
    server.stop();
  }
}

const both = (settings: (dir: string) => unknown, script: Step[] = []) => Promise.all([side("claude", settings, script), side("agent", settings, script)]);

describe.skipIf(!HAVE_CLAUDE)("side by side with Claude Code", () => {
  test(
    "UserPromptSubmit exit 2: exit 0, no model call, the same message (Claude Code prints it as its result, we on stderr)",
    async () => {
      const script = hookScript("echo blocked-by-hook >&2; exit 2");
      const [cc, ours] = await both(() => ({ hooks: hook("UserPromptSubmit", script) }));
      expect([ours.code, ours.lasts.length]).toEqual([cc.code, cc.lasts.length]);
      expect([ours.code, ours.lasts.length]).toEqual([0, 0]);
      expect(ours.stderr.trim()).toBe(cc.stdout.trim());
    },
    SLOW,
  );

  test(
    "continue:false in UserPromptSubmit and in PreToolUse: exit 0, the run ends there",
    async () => {
      const stop = hookScript(`echo '{"continue":false,"stopReason":"stopped here"}'`);
      const [cc, ours] = await both(() => ({ hooks: hook("UserPromptSubmit", stop) }));
      expect([ours.code, ours.lasts.length]).toEqual([cc.code, cc.lasts.length]);
      expect(ours.stderr.trim()).toBe(cc.stdout.trim());
      const [cc2, ours2] = await both(() => ({ hooks: hook("PreToolUse", stop, "Bash") }), [reply(toolUse("Bash", { command: "echo hi" }))]);
      expect([ours2.code, ours2.lasts.length]).toEqual([cc2.code, cc2.lasts.length]);
      expect([ours2.code, ours2.lasts.length]).toEqual([0, 1]);
    },
    SLOW,
  );

  test(
    "what the model reads for a deny rule, an ask rule and a PreToolUse exit 2",
    async () => {
      const block = hookScript("echo nope >&2; exit 2");
      const script = [
        reply(toolUse("Bash", { command: "rm -f victim.txt" })),
        reply(toolUse("Bash", { command: "echo hi" })),
        reply(toolUse("Bash", { command: "ls" })),
      ];
      const settings = () => ({ permissions: { deny: ["Bash(rm:*)"], ask: ["Bash(echo:*)"] }, hooks: hook("PreToolUse", block, "^ls$|Bash") });
      // The hook blocks every Bash call in both programs; deny and ask rules are checked on the calls it let through, so run them apart.
      const [ccRules, oursRules] = await both(() => ({ permissions: settings().permissions }), script.slice(0, 2));
      expect(oursRules.lasts.slice(1, 3)).toEqual(ccRules.lasts.slice(1, 3));
      const [ccHook, oursHook] = await both(() => ({ hooks: hook("PreToolUse", block, "Bash") }), script.slice(2));
      // The hook's path differs between the two places; the text around it is what must match.
      const strip = (s: string[]) => s.map((x) => x.replace(/\[[^\]]*hook\.sh\]/, "[HOOK]"));
      expect(strip(oursHook.lasts[1]!)).toEqual(strip(ccHook.lasts[1]!));
    },
    SLOW,
  );

  test(
    "a Stop hook's block: the same feedback message starts the next turn",
    async () => {
      const [cc, ours] = await both(
        (dir) => {
          const seen = join(dir, "stopped");
          return { hooks: hook("Stop", hookScript(`[ -e ${seen} ] && exit 0; touch ${seen}; echo '{"decision":"block","reason":"keep going"}'`)) };
        },
        [reply(text("first"))],
      );
      expect(ours.lasts[1]).toEqual(cc.lasts[1]!);
      expect(ours.lasts[1]).toEqual(["Stop hook feedback:\nkeep going"]);
    },
    SLOW,
  );
});
