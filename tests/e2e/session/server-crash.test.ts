/**
 * A stdio server that crashes between calls, in the interactive session (pseudo-terminal): the crash is
 * reported once, in one line that names the restart its next call makes; the restart itself adds
 * no second report, and the next call is answered by the restarted server.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, writeMcpConfig } from "../../support/run.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

describe("a crashing stdio server in the session", () => {
  test(
    "one line per crash, naming the restart; the next call is answered",
    async () => {
      const { term } = await startAgent(
        [
          reply(toolUse("mcp__fx__echo", { text: "one" })),
          reply(text("first done")),
          reply(toolUse("mcp__fx__echo", { text: "two" })),
          reply(text("second done")),
        ],
        { args: ["--allowedTools", "mcp__fx"], setup: (d) => writeMcpConfig(d, { fx: fixtureServer("--crash-after", "1") }) },
      );
      await submit(term, "first");
      // The server exits after answering its one call: the session reports it.
      await term.waitFor((s) => s.includes("first done") && s.includes('MCP server "fx" exited with code 1') && atPrompt(s));
      await submit(term, "second");
      const screen = await term.waitFor((s) => s.includes("second done") && atPrompt(s));
      // The restarted process exits after its call too (restart 2 may be named by then): the first crash is the one counted.
      const first = screen.split("\n").filter((l) => l.includes("restart 1 of at most 3"));
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(/MCP server "fx" exited with code 1 .*; its next call restarts it \(restart 1 of at most 3 in 5 minutes\)/);
      expect(screen).not.toContain("restarting it");
      expect(screen).toContain("two");
    },
    TEST_TIMEOUT_MS,
  );
});
