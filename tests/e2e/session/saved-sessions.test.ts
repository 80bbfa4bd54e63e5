/**
 * Saved sessions in the interactive session, through a real terminal (tmux): quit, then `-c`
 * brings the conversation back; a bare `--resume` shows the picker (date, first prompt, turns).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { fixtureServer, PROGRAM, tempDir, writeMcpConfig } from "../../support/run.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";
import { terminalEnv } from "../../support/repl.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

let server: ModelServer | undefined;
let tmux: TmuxSession | undefined;

afterEach(async () => {
  await tmux?.kill();
  server?.stop();
  tmux = server = undefined;
});

const TEST_TIMEOUT_MS = 120_000; // ends a hang only: above the screen wait (60 s), never a judge of speed
const atPrompt = (screen: string) => screen.trimEnd().split("\n").at(-1) === ">";

/** Runs the agent on a terminal in `dir` with its own config folder; the model is `server`. */
async function launch(dir: string, config: string, args: string[] = [], home = tempDir("agent-home-")): Promise<TmuxSession> {
  await tmux?.kill();
  tmux = await TmuxSession.start({
    command: [PROGRAM, ...args],
    cwd: dir,
    env: {
      ...terminalEnv(home, server!.url),
      CLAUDE_CONFIG_DIR: config,
    },
  });
  return tmux;
}

async function ask(term: TmuxSession, line: string, answer: string) {
  await term.type(line);
  await term.waitFor(`> ${line}`);
  await term.keys("Enter");
  await term.waitFor((s) => s.includes(answer) && atPrompt(s));
}

function model(script: Step[]) {
  server = startModelServer(script);
}

describe.skipIf(!TMUX)("interactive saved sessions", () => {
  test(
    "quit, then -c: the conversation is there and the next question carries it",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      model([reply(text("Hello, Ada.")), reply(text("You are Ada."))]);
      let term = await launch(dir, config);
      await term.waitFor(atPrompt);
      await ask(term, "my name is Ada", "Hello, Ada.");
      await term.keys("C-d");
      expect(await term.waitForExit()).toBe(0);

      term = await launch(dir, config, ["-c"]);
      const screen = await term.waitFor("Resumed session");
      expect(screen).toContain("> my name is Ada\nHello, Ada.\n");
      await term.waitFor(atPrompt);
      await ask(term, "who am I?", "You are Ada.");
      expect(server!.requests[1]!.body.messages.filter(conversational).map((m: any) => m.content[0].text)).toEqual([
        "my name is Ada",
        "Hello, Ada.",
        "who am I?",
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "-c replays as the live view drew it: the prompt as typed, an MCP call by server and tool, its result, the answer as Markdown",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      const home = tempDir("agent-home-");
      writeMcpConfig(dir, { fx: fixtureServer() });
      // The trust question has tests of its own; CLAUDE_CONFIG_DIR is where the approval is read.
      writeFileSync(join(config, "settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
      model([reply(toolUse("mcp__fx__echo", { text: "from the server" })), reply(text("# Report\n\nAll **done** here."))]);
      let term = await launch(dir, config, ["--allowedTools", "mcp__fx"], home);
      await term.waitFor((s) => s.includes("MCP: 1 connected") && atPrompt(s));
      await ask(term, "call it with @fx:fixture://hello", "done");
      const live = (await term.screen()).slice((await term.screen()).indexOf("> call it"));
      await term.keys("C-d");
      expect(await term.waitForExit()).toBe(0);

      term = await launch(dir, config, ["-c"], home);
      const screen = await term.waitFor("Resumed session");
      const replayed = screen.slice(screen.indexOf("> call it"), screen.indexOf("Resumed session"));
      expect(replayed).toContain('● fx › echo (MCP)(text: "from the server")\n');
      expect(replayed).not.toContain("mcp__fx__echo");
      // The mention's attachment was sent, never shown.
      expect(replayed).not.toContain("<attachment");
      expect(replayed).toContain("\nReport\n");
      expect(replayed).toContain("All done here.");
      expect(replayed).not.toContain("**");
      // The same lines as the live view printed, from the prompt to the answer's end.
      expect(replayed.trimEnd()).toBe(live.slice(0, live.indexOf("All done here.") + "All done here.".length));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "/clear starts a new session: -c afterwards brings back only what came after it",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      model([reply(text("before")), reply(text("after")), reply(text("resumed"))]);
      let term = await launch(dir, config);
      await term.waitFor(atPrompt);
      await ask(term, "old topic", "before");
      await ask(term, "/clear", "Conversation cleared.");
      await ask(term, "new topic", "after");
      await term.keys("C-d");
      expect(await term.waitForExit()).toBe(0);
      expect(readdirSync(join(config, "agent-sessions", dir.replace(/[^A-Za-z0-9]/g, "-")))).toHaveLength(2);

      term = await launch(dir, config, ["--continue"]);
      await term.waitFor(atPrompt);
      await ask(term, "go on", "resumed");
      expect(server!.requests[2]!.body.messages.filter(conversational).map((m: any) => m.content[0].text)).toEqual(["new topic", "after", "go on"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "--resume without an id lists the sessions with date, first prompt and turns, and resumes the chosen one",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      model([reply(text("A1")), reply(text("A2")), reply(text("B1")), reply(text("resumed A"))]);
      let term = await launch(dir, config);
      await term.waitFor(atPrompt);
      await ask(term, "alpha question", "A1");
      await ask(term, "alpha again", "A2");
      await term.keys("C-d");
      await term.waitForExit();
      term = await launch(dir, config);
      await term.waitFor(atPrompt);
      await ask(term, "beta question", "B1");
      await term.keys("C-d");
      await term.waitForExit();

      term = await launch(dir, config, ["--resume"]);
      const screen = await term.waitFor("Number (1-2");
      expect(screen).toMatch(/1\. \d{4}-\d\d-\d\d \d\d:\d\d +1 turn +beta question/);
      expect(screen).toMatch(/2\. \d{4}-\d\d-\d\d \d\d:\d\d +2 turns +alpha question/);
      await term.type("2");
      await term.keys("Enter");
      await term.waitFor("Resumed session");
      await term.waitFor(atPrompt);
      await ask(term, "continue alpha", "resumed A");
      expect(server!.requests[3]!.body.messages.filter(conversational).map((m: any) => m.content[0].text)).toEqual([
        "alpha question",
        "A1",
        "alpha again",
        "A2",
        "continue alpha",
      ]);
    },
    TEST_TIMEOUT_MS,
  );
});
