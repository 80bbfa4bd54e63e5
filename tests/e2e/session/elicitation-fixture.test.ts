/**
 * Servers' elicitation in the interactive session against the fixture server's
 * `--elicitation-tools` (real program, pseudo-terminal): a form of every kind with a default, sent unchanged;
 * URL mode followed by the server's `notifications/elicitation/complete`; two forms at once kept
 * apart; a form answered after MCP_TOOL_TIMEOUT has passed.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_FORM, ELICIT_URL } from "../../../fixtures/servers/fixture-catalog.ts";
import { toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { answer, lastLine } from "../../support/repl-answer.ts";
import { atPrompt, startAgent, stopAgent, submit, waitUntil } from "../../support/repl.ts";
import { fixtureServer, tempDir, writeMcpConfig } from "../../support/run.ts";

afterEach(stopAgent);

const TEST_MS = 60_000;
const SEND = 'Send this to "fx"? [a]ccept / [e]dit / [d]ecline / [c]ancel ';
/** MCP_TOOL_TIMEOUT (ms) for the slow-answer test: short, so the test passes it quickly. */
const TOOL_TIMEOUT_MS = 1500;
const ONE_FIELD = { type: "object", properties: { code: { type: "string", title: "Code" } } };
const fixture = (dir: string) => writeMcpConfig(dir, { fx: fixtureServer("--elicitation-tools") });

describe("elicitation in the session, fixture server", () => {
  test(
    "a form of every kind, each with a default: Enter at every question sends exactly the defaults (SEP-1034)",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("mcp__fx__elicit", {})), reply(text("form sent"))], {
        args: ["--allowedTools", "mcp__fx"],
        setup: fixture,
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "ask me");
      const prefilled: [string, string][] = [
        ["Name (text, required): ", "Ada"],
        ["email (text, email address): ", "ada@example.com"],
        ["age (whole number 0–150): ", "36"],
        ["score (number): ", "9.5"],
        ["verified (y/n): ", "y"],
        ["color (number): ", "2"],
        ["size (number): ", "1"],
        ["tags (numbers): ", "1, 3"],
      ];
      for (const [question, shown] of prefilled) await answer(term, question, "", { shown });
      await answer(term, SEND);
      await term.waitFor((s) => s.includes("form sent") && atPrompt(s));
      const defaults = Object.fromEntries(Object.entries(DEFAULT_FORM.properties).map(([key, p]) => [key, p.default]));
      expect(JSON.parse(toolResult(server.requests[1]!).content)).toEqual({ action: "accept", content: defaults });
    },
    TEST_MS,
  );

  test(
    "URL mode: once the page was opened, the server's elicitation/complete is one line naming it",
    async () => {
      const record = join(tempDir("browser-"), "opened.txt");
      const browser = join(tempDir("browser-"), "browser.sh");
      writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
      chmodSync(browser, 0o755);
      const { term, server } = await startAgent([reply(toolUse("mcp__fx__elicit_url", {})), reply(text("all linked"))], {
        args: ["--allowedTools", "mcp__fx"],
        setup: fixture,
        env: { BROWSER: browser },
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "connect");
      await answer(term, "Open this URL? [y]es / [n]o / [c]ancel ", "y");
      await term.waitFor(`MCP server "fx" says the page you opened is done: ${ELICIT_URL}`);
      await term.waitFor((s) => s.includes("all linked") && atPrompt(s));
      await waitUntil(() => readFileSync(record, "utf8") === `${ELICIT_URL}\n`);
      expect(JSON.parse(toolResult(server.requests[1]!).content)).toEqual({ action: "accept" });
    },
    TEST_MS,
  );

  test(
    "two forms asked at once are asked one after the other, never mixed",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("mcp__fx__elicit", { count: 2, schema: ONE_FIELD })), reply(text("both answered"))], {
        args: ["--allowedTools", "mcp__fx"],
        setup: fixture,
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "ask twice");
      await answer(term, "Code (text): ", "first");
      await term.waitFor((s) => lastLine(s).startsWith(SEND.trim()));
      // The second request arrived with the first; its form has not started.
      expect(await term.screen()).not.toContain("(2 of 2)");
      await answer(term, SEND);
      await term.waitFor("Tell the fixture about yourself (2 of 2)");
      await answer(term, "Code (text): ", "second");
      await answer(term, SEND);
      await term.waitFor((s) => s.includes("both answered") && atPrompt(s));
      const screen = await term.screen();
      expect(screen.indexOf("(1 of 2)")).toBeLessThan(screen.indexOf("Code (text): first"));
      expect(screen.indexOf("Code (text): first")).toBeLessThan(screen.indexOf("(2 of 2)"));
      expect(JSON.parse(toolResult(server.requests[1]!).content)).toEqual([
        { action: "accept", content: { code: "first" } },
        { action: "accept", content: { code: "second" } },
      ]);
    },
    TEST_MS,
  );

  test(
    "a form answered after MCP_TOOL_TIMEOUT has passed still succeeds: the call's clock stops while the user is asked",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("mcp__fx__elicit", { schema: ONE_FIELD })), reply(text("answered late"))], {
        args: ["--allowedTools", "mcp__fx"],
        setup: fixture,
        env: { MCP_TOOL_TIMEOUT: String(TOOL_TIMEOUT_MS) },
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "ask slowly");
      await term.waitFor((s) => lastLine(s).trim().startsWith("Code (text):"));
      // The user takes longer than the whole call may: the scenario itself, not a synchronisation.
      await Bun.sleep(TOOL_TIMEOUT_MS * 2);
      await answer(term, "Code (text): ", "late");
      await answer(term, SEND);
      await term.waitFor((s) => s.includes("answered late") && atPrompt(s));
      const result = toolResult(server.requests[1]!);
      expect(result.is_error).toBeUndefined();
      expect(JSON.parse(result.content)).toEqual({ action: "accept", content: { code: "late" } });
    },
    TEST_MS,
  );
});
