/**
 * MCP in the interactive session through a pseudo-terminal (tests/support/pty-term.ts): servers connect in the
 * background while the prompt is already usable, a turn waits for the ones still connecting and
 * says which, sampling asks the user first, and /mcp shows each server's state.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { BUN, fixtureServer, ROOT, writeMcpConfig } from "../../support/run.ts";
import { atPrompt, launchAgent, startAgent, stopAgent, submit, waitUntil } from "../../support/repl.ts";

afterEach(stopAgent);

/** A server slow to start makes these tests longer than the others (ms). */
const SLOW_TEST_MS = 45_000;

describe("MCP in the session", () => {
  test(
    "the prompt is there while a server takes 10 s to start; the first turn waits for it, says so, and gets its tools",
    async () => {
      const { term, server } = await launchAgent([reply(text("with every tool"))], {
        setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer(), slow: fixtureServer("--init-delay", "10000") }),
      });
      // The prompt is usable while "slow" is still in its handshake.
      await term.waitFor((s) => s.includes("Connecting MCP servers: slow…") && s.trimEnd().endsWith(">"));
      await submit(term, "/mcp");
      const screen = await term.waitFor("slow: connecting… · stdio");
      expect(screen).toMatch(/fx: connected · stdio · \d+ tools/);
      await submit(term, "use everything");
      await term.waitFor("Waiting for MCP servers still connecting: slow");
      expect(server.requests).toHaveLength(0);
      await term.waitFor((s) => s.includes("with every tool") && atPrompt(s));
      const tools = server.requests[0]!.body.tools.map((t: { name: string }) => t.name);
      expect(tools).toContain("mcp__fx__echo");
      expect(tools).toContain("mcp__slow__echo");
      expect(await term.screen()).toContain("MCP: 2 connected");
    },
    SLOW_TEST_MS,
  );

  test(
    "a server's sampling request asks first: the server, its first lines, maxTokens; no refuses it",
    async () => {
      const { term, server } = await startAgent(
        [
          reply(toolUse("mcp__fx__sample", { prompt: "Summarise the weather\nin two lines" })),
          reply(text("It is sunny.")),
          reply(toolUse("mcp__fx__sample", { prompt: "again" })),
          reply(text("all done")),
        ],
        { args: ["--allowedTools", "mcp__fx"], setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer() }) },
      );
      await submit(term, "sample twice");
      const screen = await term.waitFor('Allow "fx" to use the model? [y]es / [n]o / [a]lways for this server');
      expect(screen).toContain('MCP server "fx" asks for a completion from the model (sampling/createMessage, up to 100 tokens):');
      expect(screen).toContain("  user: Summarise the weather\n  user: in two lines\n");
      // Nothing was spent before the answer.
      await waitUntil(() => server.requests.length === 1);
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor("⎿  It is sunny.");
      await term.waitFor((s) => s.match(/Allow "fx" to use the model\?/g)?.length === 2);
      await term.type("n");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("all done") && atPrompt(s));
      // The refused request never reached the model; the server got an error it reported.
      expect(server.requests).toHaveLength(4);
      const result = server.requests[3]!.body.messages.at(-1).content[0];
      expect(result.content).toContain("User rejected sampling request");
    },
    SLOW_TEST_MS,
  );

  test(
    "[a]lways for a server's sampling does not lift its budget: past MCP_SAMPLING_MAX_REQUESTS each request is refused",
    async () => {
      const samples = Array.from({ length: 3 }, () => reply(text("sampled")));
      const { term, server } = await startAgent([reply(toolUse("mcp__fx__boom", {})), ...samples, reply(text("spent"))], {
        args: ["--allowedTools", "mcp__fx__boom"],
        env: { MCP_SAMPLING_MAX_REQUESTS: "3", MCP_SAMPLING_PER_SECOND: "1000" },
        setup: (dir) =>
          writeMcpConfig(dir, {
            fx: { command: BUN, args: [join(ROOT, "fixtures/servers/fault-server.ts"), "call-sampling-burst"], env: { FAULT_SAMPLING: "8" } },
          }),
      });
      await submit(term, "spend it");
      await term.waitFor('Allow "fx" to use the model? [y]es / [n]o / [a]lways for this server');
      await term.type("a");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("spent") && atPrompt(s));
      // One question only; three requests reached the model, the other five were refused.
      expect((await term.screen()).match(/Allow "fx" to use the model\?/g)).toHaveLength(1);
      const sampled = server.requests.filter((r) => JSON.stringify(r.body.messages[0]?.content).includes("spend") && r.body.messages.length === 1);
      expect(sampled).toHaveLength(3);
      const result = server.requests.at(-1)!.body.messages.at(-1).content[0];
      expect(JSON.stringify(result.content)).toContain("sampling: 3 answered, 5 refused");
    },
    SLOW_TEST_MS,
  );

  test(
    "the sampling question waits as a permission question does: its status line, and Esc refuses (-1) and ends the turn",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("mcp__fx__sample", { prompt: "name a colour" })), reply(text("next answer"))], {
        args: ["--allowedTools", "mcp__fx", "--debug"],
        setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer() }),
      });
      await submit(term, "sample once");
      await term.waitFor((s) => s.includes('Allow "fx" to use the model?') && /Waiting for your answer… \(.*esc to cancel\)/.test(s));
      expect(await term.screen()).not.toContain("esc to interrupt");
      await term.keys("Escape");
      // The server was told the user refused (MCP client/sampling: -1), and the turn ended there.
      await term.waitFor((s) => /\[fx\] → \{"jsonrpc":"2\.0","id":[^,]+,"error":\{"code":-1,/.test(s) && s.includes("Interrupted.") && atPrompt(s));
      await submit(term, "go on");
      await term.waitFor((s) => s.includes("next answer") && atPrompt(s));
      expect(server.requests).toHaveLength(2);
      const last = server.requests[1]!.body.messages.at(-1).content;
      expect(last.map((b: { text?: string }) => b.text).filter(Boolean)).toEqual(["[Request interrupted by user]", "go on"]);
    },
    SLOW_TEST_MS,
  );

  test(
    "/help lists /mcp reconnect, prompts with their argument names, custom commands with descriptions, and the keys",
    async () => {
      const { term } = await startAgent([], {
        setup: (dir) => {
          writeMcpConfig(dir, { fx: fixtureServer() });
          mkdirSync(join(dir, ".claude", "commands"), { recursive: true });
          writeFileSync(join(dir, ".claude", "commands", "review.md"), "---\ndescription: Review the open diff\n---\nReview $ARGUMENTS\n");
        },
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "/help");
      const screen = await term.waitFor("Keys:");
      expect(screen).toContain("/mcp__fx__greet <name> [style]  Greets someone.");
      expect(screen).toContain("/review  Review the open diff");
      expect(screen).toContain("/mcp reconnect <server>  start that server afresh");
      expect(screen).toMatch(/^ {2}Esc +interrupt the turn/m);
      expect(screen).toMatch(/^ {2}Ctrl-L +clear the screen$/m);
    },
    SLOW_TEST_MS,
  );
});
