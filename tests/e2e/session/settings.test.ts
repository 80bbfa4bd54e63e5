/**
 * Settings rules and hooks in the interactive session, through a pseudo-terminal (tests/support/pty-term.ts): a deny rule
 * refuses without asking, an ask rule asks even for a tool that never asks, a PreToolUse hook's
 * exit 2 blocks, and /permissions and /hooks list what applies with its file. An untrusted
 * project's hooks wait (the session has no trust question for settings yet); a trusted one's run.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { atPrompt, launchAgent, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { hookScript } from "../print/settings-support.ts";

afterEach(stopAgent);

const projectSettings = (value: unknown) => (dir: string) => {
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify(value));
  writeFileSync(join(dir, "victim.txt"), "x");
};

describe("settings in the session", () => {
  test(
    "a deny rule refuses without asking; an ask rule asks even for Read",
    async () => {
      const { term, dir, server } = await startAgent(
        [reply(toolUse("Bash", { command: "rm victim.txt" })), reply(toolUse("Read", { file_path: "victim.txt" })), reply(text("finished"))],
        { setup: projectSettings({ permissions: { deny: ["Bash(rm:*)"], ask: ["Read(./victim.txt)"] } }) },
      );
      await submit(term, "go");
      await term.waitFor("Allow Read(victim.txt)?");
      expect(existsSync(join(dir, "victim.txt"))).toBe(true);
      expect(server.requests[1]!.body.messages.at(-1).content[0].content).toBe("Permission to use Bash with command rm victim.txt has been denied.");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("finished") && atPrompt(s));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a project's hooks wait for the trust question; no keeps only its deny rules; /permissions and /hooks list what applies",
    async () => {
      const script = hookScript("exit 0");
      const { term } = await launchAgent([], {
        setup: projectSettings({
          permissions: { deny: ["Bash(rm:*)", "WebFetch(domain:x.com)"] },
          hooks: { Stop: [{ hooks: [{ type: "command", command: script }] }] },
        }),
      });
      await term.waitFor(`.claude/settings.json: hook Stop: ${script}`);
      await term.waitFor("Apply them? [y]es / [n]o (their deny and ask rules apply either way):");
      await term.type("n");
      await term.keys("Enter");
      await term.waitFor(atPrompt);
      await submit(term, "/permissions");
      await term.waitFor((screen) => /^deny +Bash\(rm:\*\) +\.claude\/settings\.json$/m.test(screen));
      // The session offers WebFetch, so its rule applies (no "unused" mark).
      await term.waitFor((screen) => /^deny +WebFetch\(domain:x\.com\) +\.claude\/settings\.json$/m.test(screen));
      await submit(term, "/hooks");
      await term.waitFor("No hooks (settings files: hooks).");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "yes applies the project's hooks and is remembered for the file as it is",
    async () => {
      const home = tempDir("agent-home-");
      const script = hookScript("exit 0");
      const settings = projectSettings({ hooks: { Stop: [{ matcher: "", hooks: [{ type: "command", command: script }] }] } });
      let dir = "";
      const first = await launchAgent([], { home, setup: (d) => ((dir = d), settings(d)) });
      await first.term.waitFor("Apply them?");
      await first.term.type("y");
      await first.term.keys("Enter");
      await first.term.waitFor(atPrompt);
      await submit(first.term, "/hooks");
      await first.term.waitFor(`Stop  *  ${script}  .claude/settings.json`);
      expect(JSON.parse(readFileSync(join(home, ".claude", "agent-settings-approvals.json"), "utf8"))[dir]).toHaveProperty([".claude/settings.json"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "in a trusted folder a project's PreToolUse hook runs: exit 2 blocks the call with no question",
    async () => {
      const home = tempDir("agent-home-");
      const script = hookScript("echo policy says no >&2; exit 2");
      let project = "";
      const { term, dir, server } = await startAgent([reply(toolUse("Bash", { command: "touch made.txt" })), reply(text("blocked then"))], {
        home,
        setup: (d) => {
          project = d;
          projectSettings({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: script }] }] } })(d);
          writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects: { [d]: { hasTrustDialogAccepted: true } } }));
        },
      });
      await submit(term, "make it");
      await term.waitFor((s) => s.includes("blocked then") && atPrompt(s));
      expect(project).toBe(dir);
      expect(existsSync(join(dir, "made.txt"))).toBe(false);
      expect(server.requests[1]!.body.messages.at(-1).content[0].content).toBe(`PreToolUse:Bash hook error: [${script}]: policy says no\n`);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "[a]lways saves the command's prefix rule to .claude/settings.local.json, keeping its other keys; the rule holds at once",
    async () => {
      const { term, dir } = await startAgent(
        [reply(toolUse("Bash", { command: "echo first" })), reply(toolUse("Bash", { command: "echo second" })), reply(text("both ran"))],
        {
          setup: (d) => {
            mkdirSync(join(d, ".claude"));
            writeFileSync(
              join(d, ".claude", "settings.local.json"),
              '{\n  "enabledMcpjsonServers": ["x"],\n  "permissions": {\n    "deny": ["Bash(rm:*)"]\n  }\n}\n',
            );
          },
        },
      );
      await submit(term, "echo twice");
      await term.waitFor("Allow Bash(echo first)? [y]es / [n]o / [a]lways: save Bash(echo:*) to .claude/settings.local.json");
      await term.type("a");
      await term.keys("Enter");
      const screen = await term.waitFor((s) => s.includes("both ran") && atPrompt(s));
      expect(screen).not.toContain("Allow Bash(echo second)");
      expect(JSON.parse(readFileSync(join(dir, ".claude", "settings.local.json"), "utf8"))).toEqual({
        enabledMcpjsonServers: ["x"],
        permissions: { deny: ["Bash(rm:*)"], allow: ["Bash(echo:*)"] },
      });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a compound command is offered yes or no only",
    async () => {
      const { term } = await startAgent([reply(toolUse("Bash", { command: "echo a && echo b" })), reply(text("ran"))]);
      await submit(term, "both");
      const screen = await term.waitFor("Allow Bash(echo a && echo b)? [y]es / [n]o");
      expect(screen).not.toContain("[a]lways");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("ran") && atPrompt(s));
    },
    TEST_TIMEOUT_MS,
  );
});
