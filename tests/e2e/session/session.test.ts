/**
 * The interactive session through a pseudo-terminal (tests/support/pty-term.ts): the real program, a scripted model
 * server, real files in a temp folder, real MCP servers.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { fixtureServer, isAlive, tempDir, writeMcpConfig } from "../../support/run.ts";
import * as repl from "../../support/repl.ts";
import { atPrompt, INTERRUPT_MARKER, stopAgent, submit, TEST_TIMEOUT_MS, waitUntil } from "../../support/repl.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

let server: ModelServer | undefined;

afterEach(async () => {
  await stopAgent();
  server = undefined;
});

async function startAgent(script: Step[], opts: repl.StartOptions = {}) {
  const started = await repl.startAgent(script, opts);
  server = started.server;
  return started;
}

async function launchAgent(script: Step[], opts: repl.StartOptions = {}) {
  const started = await repl.launchAgent(script, opts);
  server = started.server;
  return started;
}

describe("interactive session", () => {
  test(
    "a question is answered with streamed text; history is kept across sessions",
    async () => {
      const { term, home } = await startAgent([reply(text("Streaming works fine."))]);
      await submit(term, "are you streaming?");
      await term.waitFor((s) => s.includes("Streaming works fine.") && atPrompt(s));
      expect(server!.requests[0]!.body.stream).toBe(true);
      expect(server!.requests[0]!.body.messages[0].content[0].text).toBe("are you streaming?");
      await term.keys("C-d");
      expect(await term.waitForExit()).toBe(0);
      expect(readFileSync(join(home, ".claude", "agent_history"), "utf8")).toBe("are you streaming?\n");
      const again = await startAgent([], { home });
      await again.term.keys("Up");
      await again.term.waitFor("> are you streaming?");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a prompt argument is the first question of the session",
    async () => {
      const { term } = await startAgent([reply(text("Answer to the first."))], { args: ["what is first?"] });
      // The prompt shows from the start, so wait for the answer, not for the prompt alone.
      const screen = await term.waitFor((s) => s.includes("Answer to the first.") && atPrompt(s));
      expect(screen).toContain("> what is first?\nAnswer to the first.");
      expect(server!.requests[0]!.body.messages[0].content[0].text).toBe("what is first?");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "/model switches the model, /clear starts a new conversation",
    async () => {
      const { term } = await startAgent([reply(text("one")), reply(text("two")), reply(text("three"))]);
      await submit(term, "first");
      await term.waitFor((s) => s.includes("one") && atPrompt(s));
      await submit(term, "/model claude-other-model");
      await term.waitFor("model set to claude-other-model");
      await submit(term, "second");
      await term.waitFor((s) => s.includes("two") && atPrompt(s));
      expect(server!.requests[1]!.body.model).toBe("claude-other-model");
      expect(server!.requests[1]!.body.messages.filter(conversational)).toHaveLength(3);
      await submit(term, "/clear");
      await term.waitFor("Conversation cleared.");
      await submit(term, "third");
      await term.waitFor((s) => s.includes("three") && atPrompt(s));
      expect(server!.requests[2]!.body.messages.filter(conversational)).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );

  // Waits on AgentRuntime letting /model replace the client its MCP sampling handler uses (lib/agent/runtime/runtime.ts).
  test(
    "/model also switches the model MCP sampling uses",
    async () => {
      const { term } = await startAgent([reply(toolUse("mcp__fx__sample", { prompt: "hi" })), reply(text("sampled")), reply(text("done"))], {
        args: ["--allowedTools", "mcp__fx"],
        setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer() }),
      });
      await submit(term, "/model claude-other-model");
      await term.waitFor("model set to claude-other-model");
      await submit(term, "ask the server to sample");
      await term.waitFor('Allow "fx" to use the model?');
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("done") && atPrompt(s));
      // The turn's first call, the server's sampling request, then the turn's second call.
      expect(server!.requests.map((r) => r.body.model)).toEqual(["claude-other-model", "claude-other-model", "claude-other-model"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a model error is one line, and the session goes on",
    async () => {
      const { term } = await startAgent([{ status: 400, error: { type: "invalid_request_error", message: "bad things" } }, reply(text("recovered"))]);
      await submit(term, "hello");
      await term.waitFor((s) => s.includes("error: API error 400: bad things") && atPrompt(s));
      await submit(term, "again");
      await term.waitFor((s) => s.includes("recovered") && atPrompt(s));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a request the API refuses (400) is discarded with its whole turn, so later turns work",
    async () => {
      // Like a real API faced with a bad block: every request that carries it is refused.
      const unlessPoisoned =
        (step: Step): Step =>
        (req) =>
          JSON.stringify(req.body.messages).includes("POISON")
            ? { status: 400, error: { type: "invalid_request_error", message: "messages: bad content" } }
            : step;
      const { term } = await startAgent(
        [
          unlessPoisoned(reply(text("first answer"))),
          unlessPoisoned(reply(toolUse("Read", { file_path: "bad.txt" }))),
          unlessPoisoned(reply(text("never sent"))),
          unlessPoisoned(reply(text("clean again"))),
        ],
        { setup: (dir) => writeFileSync(join(dir, "bad.txt"), "POISON\n") },
      );
      await submit(term, "hello");
      await term.waitFor((s) => s.includes("first answer") && atPrompt(s));
      await submit(term, "read bad.txt");
      await term.waitFor((s) => s.includes("This turn was discarded") && atPrompt(s));
      expect(await term.screen()).toContain("error: API error 400: messages: bad content");
      await submit(term, "and now?");
      await term.waitFor((s) => s.includes("clean again") && atPrompt(s));
      // The refused turn is gone whole (its tool_use with its tool_result); the earlier one stays.
      const texts = server!.requests[3]!.body.messages.filter(conversational).map((m: any) => m.content.map((b: any) => b.text ?? b.type).join(""));
      expect(texts).toEqual(["hello", "first answer", "and now?"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a Write call asks for permission; y runs it and the answer is not kept in history",
    async () => {
      const { term, dir, home } = await startAgent([reply(toolUse("Write", { file_path: "out.txt", content: "hello\n" })), reply(text("File written."))]);
      await submit(term, "write the file");
      await term.waitFor("Allow Write(out.txt)? [y]es / [n]o / [a]lways: accept edits for this session");
      expect(existsSync(join(dir, "out.txt"))).toBe(false);
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("File written.") && atPrompt(s));
      expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("hello\n");
      const results = server!.requests[1]!.body.messages.at(-1).content;
      expect(results[0].is_error).toBeUndefined();
      await term.keys("C-d");
      await term.waitForExit();
      expect(readFileSync(join(home, ".claude", "agent_history"), "utf8")).toBe("write the file\n");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "n refuses the call: the model is told, and nothing is written",
    async () => {
      const { term, dir } = await startAgent([reply(toolUse("Write", { file_path: "no.txt", content: "x" })), reply(text("Understood."))]);
      await submit(term, "write it");
      await term.waitFor("Allow Write(no.txt)?");
      await term.type("n");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("Understood.") && atPrompt(s));
      expect(existsSync(join(dir, "no.txt"))).toBe(false);
      const result = server!.requests[1]!.body.messages.at(-1).content[0];
      expect(result.is_error).toBe(true);
      expect(result.content).toContain("refused");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Ctrl-C during a slow Bash call interrupts it and returns to the prompt",
    async () => {
      const { term, dir } = await startAgent([reply(toolUse("Bash", { command: "echo $$ > pid.txt; exec sleep 30" })), reply(text("Next answer."))], {
        args: ["--allowedTools", "Bash"],
      });
      await submit(term, "sleep a while");
      await term.waitFor("Bash(echo $$ > pid.txt; exec sleep 30)");
      const pidFile = join(dir, "pid.txt");
      await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
      const pid = Number(readFileSync(pidFile, "utf8"));
      expect(isAlive(pid)).toBe(true);
      await term.keys("C-c");
      await term.waitFor((s) => s.includes("Interrupted.") && atPrompt(s));
      await waitUntil(() => !isAlive(pid));
      expect(server!.requests.length).toBe(1);
      await submit(term, "and now?");
      await term.waitFor((s) => s.includes("Next answer.") && atPrompt(s));
      const messages = server!.requests[1]!.body.messages.filter(conversational);
      const interrupted = messages[2].content[0];
      expect(interrupted.type).toBe("tool_result");
      expect(interrupted.is_error).toBe(true);
      // The interrupt is marked, and the next input joins that user message: roles still alternate.
      expect(messages.at(-1).content.map((b: any) => b.text ?? b.type)).toEqual(["tool_result", INTERRUPT_MARKER, "and now?"]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Ctrl-C while the model is answering abandons the request",
    async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const { term } = await startAgent([
        async () => {
          await held;
          return reply(text("too late"));
        },
        reply(text("fresh answer")),
      ]);
      await submit(term, "take your time");
      await waitUntil(() => server!.requests.length === 1);
      await term.keys("C-c");
      await term.waitFor((s) => s.includes("Interrupted.") && atPrompt(s));
      release();
      await submit(term, "next");
      await term.waitFor((s) => s.includes("fresh answer") && atPrompt(s));
      expect(await term.screen()).not.toContain("too late");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "MCP tools ask; [a]lways stops asking; progress is shown; Ctrl-C cancels an MCP call in flight",
    async () => {
      const log = join(tempDir(), "received.jsonl");
      const { term } = await startAgent(
        [
          reply(toolUse("mcp__fx__echo", { text: "first" })),
          reply(toolUse("mcp__fx__echo", { text: "second" })),
          reply(text("Both echoed.")),
          reply(toolUse("mcp__fx__slow", { ms: 60000 })),
        ],
        { setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer("--log-file", log) }) },
      );
      await submit(term, "echo twice");
      await term.waitFor((s) => s.includes('"text": "first"') && s.includes("Allow fx › echo (MCP)?"));
      await term.type("a");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("Both echoed.") && atPrompt(s));
      const screen = await term.screen();
      expect(screen.match(/Allow fx › echo/g)).toHaveLength(1);
      expect(screen).toContain("⎿  second");
      await submit(term, "be slow");
      await term.waitFor("Allow fx › slow (MCP)");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor("⋯  0/60000 (0%)");
      await waitUntil(() => readFileSync(log, "utf8").includes('"name":"slow"'));
      await term.keys("C-c");
      await term.waitFor((s) => s.includes("Interrupted.") && atPrompt(s));
      await waitUntil(() => readFileSync(log, "utf8").includes("notifications/cancelled"));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Ctrl-C twice at an empty prompt leaves, shutting MCP servers down",
    async () => {
      const pidFile = join(tempDir(), "pids");
      const { term } = await startAgent([], { setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer("--pid-file", pidFile) }) });
      // Servers start in the background: the prompt may come before the server wrote its pid.
      await term.waitFor("MCP: 1 connected");
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      expect(isAlive(pid)).toBe(true);
      await term.keys("C-c");
      await term.waitFor("press Ctrl-C again to exit");
      await term.keys("C-c");
      expect(await term.waitForExit()).toBe(0);
      await waitUntil(() => !isAlive(pid));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "leaving while MCP servers still connect (Ctrl-C twice at the prompt) exits 0, leaving no server process behind",
    async () => {
      const pidFile = join(tempDir(), "pids");
      const { term } = await launchAgent([], {
        setup: (dir) => writeMcpConfig(dir, { slow: fixtureServer("--init-delay", "8000", "--grandchild", "--pid-file", pidFile) }),
      });
      await term.waitFor((s) => s.includes("Connecting MCP servers: slow…") && s.trimEnd().endsWith(">"));
      const pids = () => (existsSync(pidFile) ? readFileSync(pidFile, "utf8").trim().split("\n").filter(Boolean).map(Number) : []);
      await waitUntil(() => pids().length === 2); // the server and its grandchild
      expect(pids().every(isAlive)).toBe(true);
      await term.keys("C-c");
      await term.waitFor("press Ctrl-C again");
      await term.keys("C-c");
      expect(await term.waitForExit()).toBe(0);
      await waitUntil(() => !pids().some(isAlive));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Tab completes slash commands and @ file mentions",
    async () => {
      const { term } = await startAgent([reply(text("seen"))], { setup: (dir) => writeFileSync(join(dir, "notes-for-later.txt"), "remember") });
      await term.type("/he");
      await term.waitFor("> /he");
      await term.keys("Tab");
      await term.waitFor("> /help");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("/model") && s.includes("Commands:") && atPrompt(s));
      await term.type("read @notes");
      await term.waitFor("> read @notes");
      await term.keys("Tab");
      await term.waitFor("> read @notes-for-later.txt");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("seen") && atPrompt(s));
      const content = server!.requests[0]!.body.messages[0].content;
      expect(content[1].text).toContain("remember");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "start-up status and /mcp show a failed server with its reason",
    async () => {
      const { term } = await startAgent([], {
        setup: (dir) => writeMcpConfig(dir, { good: fixtureServer(), broken: fixtureServer("--exit-immediately") }),
      });
      await term.waitFor("MCP: 1 connected, 1 failed");
      await submit(term, "/mcp");
      const screen = await term.waitFor("broken: failed");
      expect(screen).toMatch(/good: connected · stdio · \d+ tools, \d+ prompts, \d+ resources/);
      expect(screen).toMatch(/broken: failed · stdio · exited with code 1 before the handshake/);
      expect(server!.requests.length).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
