/**
 * `/mcp reconnect <server>` in the interactive session (pseudo-terminal): the server is started afresh, its
 * lists taken again, and the session goes on.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer, writeMcpConfig } from "../../support/run.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

const pids = (dir: string) => readFileSync(join(dir, "fx.pid"), "utf8").trim().split("\n");

describe("/mcp reconnect", () => {
  test(
    "starts the server again (a new process) and says what it now offers; a name no server has is one line",
    async () => {
      const { term, dir } = await startAgent([], { setup: (d) => writeMcpConfig(d, { fx: fixtureServer("--pid-file", join(d, "fx.pid")) }) });
      await term.waitFor((s) => s.includes("MCP: 1 connected") && atPrompt(s));
      expect(pids(dir)).toHaveLength(1);
      await submit(term, "/mcp reconnect fx");
      await term.waitFor("fx: connected (14 tools, 3 prompts, 3 resources)");
      expect(pids(dir)).toHaveLength(2);
      await submit(term, "/mcp reconnect nope");
      await term.waitFor('error: no MCP server named "nope"');
      await submit(term, "/mcp reconnect");
      await term.waitFor("usage: /mcp reconnect <server>");
    },
    TEST_TIMEOUT_MS,
  );
});
