/**
 * Servers' elicitation in the interactive session, through the real program in a pseudo-terminal
 * and the npm everything server's `trigger-elicitation-request` and `trigger-url-elicitation`
 * tools: the form with its defaults pre-filled, edited, declined and cancelled; URL mode's
 * consent with a $BROWSER stand-in that records what it was asked to open.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse, type RecordedRequest } from "../../support/model-server.ts";
import { npmServer } from "../../support/mcp.ts";
import { fixtureServer, tempDir, writeMcpConfig } from "../../support/run.ts";
import { answer, lastLine } from "../../support/repl-answer.ts";
import { atPrompt, startAgent, stopAgent, submit, waitUntil } from "../../support/repl.ts";

afterEach(stopAgent);

const TEST_MS = 60_000;
const FORM_TOOL = "mcp__everything__trigger-elicitation-request";
const URL_TOOL = "mcp__everything__trigger-url-elicitation";

/** The ElicitResult the server received, as its tool result reports it (`Raw result: {…}`). */
function receivedResult(request: RecordedRequest): { action: string; content?: Record<string, unknown> } {
  const result = request.body.messages.at(-1).content.find((b: { type: string }) => b.type === "tool_result");
  const texts = (Array.isArray(result.content) ? result.content : [{ text: result.content }]).map((b: { text: string }) => b.text).join("\n");
  const raw = /Raw result: (\{[\s\S]*\})\s*$/.exec(texts);
  if (!raw) throw new Error(`no raw result in: ${texts}`);
  return JSON.parse(raw[1]!);
}

/** The questions of the everything server's form, in order. */
const QUESTIONS = [
  "String (text, required): ",
  "Boolean (y/n): ",
  "String with default (text): ",
  "String with email format (text, email address): ",
  "String with uri format (text, URI): ",
  "String with date format (text, date YYYY-MM-DD): ",
  "Integer (whole number 1–100): ",
  "Number in range 1-1000 (number 0–1000): ",
  "Untitled Single Select Enum (number): ",
  "Untitled Multiple Select Enum (numbers, 1–3 choices): ",
  "Titled Single Select Enum (number): ",
  "Titled Multiple Select Enum (numbers, 1–3 choices): ",
  "Legacy Titled Single Select Enum (number): ",
];

/** What the form sends when every pre-filled default is kept (SEP-1034). */
const DEFAULTS = {
  firstLine: "It was a dark and stormy night.",
  integer: 42,
  number: 3.14,
  untitledSingleSelectEnum: "Monica",
  untitledMultipleSelectEnum: ["Guitar"],
  titledSingleSelectEnum: "hero-1",
  titledMultipleSelectEnum: ["fish-1"],
  legacyTitledEnum: "pet-1",
};

const SEND = "? [a]ccept / [e]dit / [d]ecline / [c]ancel ";

function everythingProject(dir: string): void {
  writeMcpConfig(dir, { everything: npmServer("everything", ["stdio"]) });
}

describe("elicitation in the session", () => {
  test(
    "a form is accepted with its defaults, then edited (an invalid value asked again), then declined",
    async () => {
      const { term, server } = await startAgent(
        [
          reply(toolUse(FORM_TOOL, {})),
          reply(text("first done")),
          reply(toolUse(FORM_TOOL, {})),
          reply(text("second done")),
          reply(toolUse(FORM_TOOL, {})),
          reply(text("third done")),
        ],
        { args: ["--allowedTools", "mcp__everything"], setup: everythingProject },
      );
      await term.waitFor("MCP: 1 connected");
      await submit(term, "ask me");
      let screen = await term.waitFor(QUESTIONS[0]!);
      expect(screen).toContain('MCP server "everything" asks for information (elicitation):\n  Please provide inputs for the following fields:');
      expect(screen).toContain("Waiting for your answer to everything…");
      // The required name is typed; every other field keeps what is pre-filled.
      await answer(term, QUESTIONS[0]!, "Ada");
      await answer(term, QUESTIONS[1]!);
      await answer(term, QUESTIONS[2]!, "", { shown: "It was a dark and stormy night." });
      for (const q of QUESTIONS.slice(3, 6)) await answer(term, q);
      await answer(term, QUESTIONS[6]!, "", { shown: "42" });
      await answer(term, QUESTIONS[7]!, "", { shown: "3.14" });
      screen = await term.waitFor(QUESTIONS[8]!);
      expect(screen).toContain("    Choose your favorite friend\n      1. Monica\n      2. Rachel");
      await answer(term, QUESTIONS[8]!, "", { shown: "1" });
      await answer(term, QUESTIONS[9]!, "", { shown: "1" });
      screen = await term.waitFor(QUESTIONS[10]!);
      expect(screen).toContain("      2. Green Lantern (hero-2)");
      for (const q of QUESTIONS.slice(10)) await answer(term, q, "", { shown: "1" });
      screen = await term.waitFor(SEND);
      expect(screen).toContain("  1. String: Ada\n  2. Boolean: (none)\n  3. String with default: It was a dark and stormy night.");
      expect(screen).toContain("  11. Titled Single Select Enum: Superman");
      await answer(term, 'Send this to "everything"' + SEND);
      await term.waitFor((s) => s.includes("first done") && atPrompt(s));
      expect(receivedResult(server.requests[1]!)).toEqual({ action: "accept", content: { name: "Ada", ...DEFAULTS } });

      // Edited: values changed, an invalid one refused with its reason and asked again.
      await submit(term, "again");
      await answer(term, QUESTIONS[0]!, "Bob");
      await answer(term, QUESTIONS[1]!, "y");
      await answer(term, QUESTIONS[2]!, "Call me Ishmael.", { clear: true });
      await answer(term, QUESTIONS[3]!, "bob");
      await term.waitFor("  String with email format must be an email address");
      await answer(term, QUESTIONS[3]!, "@example.com", { shown: "bob" });
      for (const q of QUESTIONS.slice(4, 6)) await answer(term, q);
      await answer(term, QUESTIONS[6]!, "500", { clear: true });
      await term.waitFor("  Integer must be at most 100");
      await answer(term, QUESTIONS[6]!, "7", { clear: true, shown: "500" });
      await answer(term, QUESTIONS[7]!);
      await answer(term, QUESTIONS[8]!);
      await answer(term, QUESTIONS[9]!, "2, 3", { clear: true });
      for (const q of QUESTIONS.slice(10)) await answer(term, q);
      // [e]dit goes back to one field before sending.
      await answer(term, 'Send this to "everything"' + SEND, "e");
      await answer(term, "Edit which field? [1-13, Enter for all] ", "9");
      await answer(term, QUESTIONS[8]!, "Chandler", { clear: true, shown: "1" });
      screen = await term.waitFor((s) => s.split(SEND).length === 4);
      expect(screen).toContain("  9. Untitled Single Select Enum: Chandler");
      await answer(term, 'Send this to "everything"' + SEND, "a");
      await term.waitFor((s) => s.includes("second done") && atPrompt(s));
      expect(receivedResult(server.requests[3]!)).toEqual({
        action: "accept",
        content: {
          ...DEFAULTS,
          name: "Bob",
          check: true,
          firstLine: "Call me Ishmael.",
          email: "bob@example.com",
          integer: 7,
          untitledSingleSelectEnum: "Chandler",
          untitledMultipleSelectEnum: ["Piano", "Violin"],
        },
      });

      // Declined: reachable without filling the required field.
      await submit(term, "once more");
      for (const q of QUESTIONS) await answer(term, q);
      // The fourth summary of the session: two forms before, one of them edited.
      screen = await term.waitFor((s) => s.split(SEND).length === 5);
      expect(screen).toContain("  1. String: (required)");
      await answer(term, 'Send this to "everything"' + SEND, "d");
      await term.waitFor((s) => s.includes("third done") && atPrompt(s));
      expect(receivedResult(server.requests[5]!)).toEqual({ action: "decline" });
    },
    TEST_MS,
  );

  test(
    "the status line stays under the form: a field's label is next to its input row",
    async () => {
      const { term } = await startAgent([reply(toolUse(FORM_TOOL, {})), reply(text("cancelled it"))], {
        args: ["--allowedTools", "mcp__everything"],
        setup: everythingProject,
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "ask me");
      await answer(term, QUESTIONS[0]!, "Ada");
      const screen = await term.waitFor((s) => lastLine(s).trim().startsWith(QUESTIONS[1]!.trim()));
      const rows = screen.trimEnd().split("\n");
      const at = rows.findLastIndex((l) => l.trim().startsWith(QUESTIONS[1]!.trim()));
      // The field's description, then its input row, then the status line (spinner and phase).
      expect(rows[at - 1]).not.toContain("Waiting for your answer");
      expect(rows[at - 1]!.trim()).toBe("Agree to the terms and conditions");
      expect(rows.slice(at + 1)).toHaveLength(1);
      expect(rows[at + 1]).toMatch(/Waiting for your answer to everything… \(.*esc to cancel\)$/);
      await term.keys("Escape");
      await term.waitFor((s) => s.includes("cancelled it") && atPrompt(s));
    },
    TEST_MS,
  );

  test(
    "Esc in the middle of a form cancels it: the server gets cancel, and the turn goes on",
    async () => {
      const { term, server } = await startAgent([reply(toolUse(FORM_TOOL, {})), reply(text("cancelled it"))], {
        args: ["--allowedTools", "mcp__everything"],
        setup: everythingProject,
      });
      await term.waitFor("MCP: 1 connected");
      await submit(term, "ask me");
      await answer(term, QUESTIONS[0]!, "Ada");
      await term.waitFor((s) => lastLine(s).includes(QUESTIONS[1]!.trim()));
      await term.keys("Escape");
      await term.waitFor((s) => s.includes("cancelled it") && atPrompt(s));
      expect(receivedResult(server.requests[1]!)).toEqual({ action: "cancel" });
      // Esc went to the form, not to the turn.
      expect(await term.screen()).not.toContain("Interrupted.");
    },
    TEST_MS,
  );

  test(
    "URL mode shows the server, its message, the whole URL and its host; yes opens it with $BROWSER and accepts, no declines",
    async () => {
      const record = join(tempDir("browser-"), "opened.txt");
      const browser = join(tempDir("browser-"), "browser.sh");
      writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
      chmodSync(browser, 0o755);
      const url = "https://consent.example.com/flows/very/long/path/that/goes/on?step=1&session=abc#part";
      const { term, server } = await startAgent(
        [
          reply(toolUse(URL_TOOL, { url, message: "Connect your account to continue." })),
          reply(text("opened")),
          reply(toolUse(URL_TOOL, { url, message: "Once more." })),
          reply(text("refused")),
        ],
        { args: ["--allowedTools", "mcp__everything"], setup: everythingProject, env: { BROWSER: browser } },
      );
      await term.waitFor("MCP: 1 connected");
      await submit(term, "connect");
      const screen = await term.waitFor("Open this URL? [y]es / [n]o / [c]ancel ");
      expect(screen).toContain(
        `MCP server "everything" asks you to open a URL (elicitation):\n  Connect your account to continue.\n  ${url}\n  host: consent.example.com\n`,
      );
      // Nothing is opened before the answer.
      expect(existsSync(record)).toBe(false);
      await answer(term, "Open this URL? [y]es / [n]o / [c]ancel ", "y");
      await term.waitFor((s) => s.includes("opened") && atPrompt(s));
      await waitUntil(() => existsSync(record));
      expect(readFileSync(record, "utf8")).toBe(`${url}\n`);
      expect(receivedResult(server.requests[1]!)).toEqual({ action: "accept" });

      await submit(term, "again");
      await answer(term, "Open this URL? [y]es / [n]o / [c]ancel ", "n");
      await term.waitFor((s) => s.includes("refused") && atPrompt(s));
      expect(receivedResult(server.requests[3]!)).toEqual({ action: "decline" });
      expect(readFileSync(record, "utf8")).toBe(`${url}\n`);
    },
    TEST_MS,
  );

  test(
    "the session declares elicitation with both modes, exactly {form: {}, url: {}}",
    async () => {
      const log = join(tempDir("fx-log-"), "stdin.jsonl");
      const { term } = await startAgent([], { setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer("--log-file", log) }) });
      await term.waitFor("MCP: 1 connected");
      const init = readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((m) => m.method === "initialize");
      expect(init.params.capabilities).toEqual({ roots: {}, sampling: {}, elicitation: { form: {}, url: {} } });
    },
    TEST_MS,
  );
});
