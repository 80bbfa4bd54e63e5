/**
 * A 2026-07-28 server in the interactive session through a pseudo-terminal (tests/support/pty-term.ts): the TypeScript
 * SDK v2 strict stdio server (fixtures/servers/sdk2-server.ts, `legacy: 'reject'`) connects, /mcp
 * names its era and revision, and the model's call to its tool is answered.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, launchAgent, stopAgent, submit } from "../../support/repl.ts";
import { BUN, ROOT, writeMcpConfig } from "../../support/run.ts";

afterEach(stopAgent);

describe("a modern server in the session", () => {
  test("/mcp shows · modern 2026-07-28; a turn calls its tool", async () => {
    const m = { command: BUN, args: [join(ROOT, "fixtures/servers/sdk2-server.ts"), "stdio", "--strict"] };
    const { term, server } = await launchAgent([reply(toolUse("mcp__m__shout", { text: "tmux" })), reply(text("shouted"))], {
      setup: (dir) => writeMcpConfig(dir, { m }),
    });
    await term.waitFor("MCP: 1 connected");
    await submit(term, "/mcp");
    const screen = await term.waitFor("m: connected · stdio · modern 2026-07-28 · 4 tools");
    expect(screen).toContain("modern 2026-07-28");
    await submit(term, "shout it");
    await term.waitFor("Allow m › shout (MCP)? [y]es / [n]o / [a]lways: save mcp__m__shout to .claude/settings.local.json");
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor((s) => s.includes("shouted") && atPrompt(s));
    expect(JSON.stringify(server.requests[1]!.body.messages.at(-1).content[0].content)).toContain("TMUX");
  }, 45_000);
});
