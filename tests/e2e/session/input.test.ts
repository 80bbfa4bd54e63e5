/**
 * The interactive prompt through a real terminal (tmux): nothing typed or pasted is lost
 * (type-ahead queue, bracketed paste, continuation lines, wide characters), the status line while
 * a turn runs, and Esc interrupting a turn with a conversation that stays valid.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { TMUX } from "../../support/tmux.ts";
import { atPrompt, INTERRUPT_MARKER, messageTexts, startAgent, stopAgent, submit, TEST_TIMEOUT_MS, waitUntil } from "../../support/repl.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

afterEach(stopAgent);

/** A model step held until `release()`, so a turn stays running while the test types. */
function held(answer: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  return { step: async () => (await gate, reply(text(answer))), release };
}

/** The user's text of the newest user message of request `n`. */
const lastUserText = (server: ModelServer, n: number) =>
  server.requests[n]!.body.messages.filter(conversational)
    .at(-1)
    .content.map((b: { text?: string }) => b.text ?? "")
    .join("");

describe("interactive input", () => {
  test(
    "lines typed while a turn runs are queued, shown as queued, and sent each in turn",
    async () => {
      const slow = held("answer one");
      const { term, server } = await startAgent([slow.step, reply(text("answer two")), reply(text("answer three"))]);
      await submit(term, "first");
      await term.waitFor("esc to interrupt");
      await term.type("second");
      await term.keys("Enter");
      await term.type("third");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("queued: second") && s.includes("queued: third"));
      // The first request is held: nothing queued has been sent.
      await waitUntil(() => server.requests.length === 1);
      slow.release();
      await term.waitFor((s) => s.includes("answer three") && atPrompt(s));
      expect(server.requests.map((_, n) => lastUserText(server, n))).toEqual(["first", "second", "third"]);
      // The transcript reads in order, and the queue is gone.
      const screen = await term.screen();
      expect(screen.indexOf("> second")).toBeGreaterThan(screen.indexOf("answer one"));
      expect(screen).not.toContain("queued:");
    },
    TEST_TIMEOUT_MS,
  );

  test.skipIf(!TMUX)(
    "a pasted block is one input with CRLF as LF; a large paste shows as [pasted N lines] and is sent whole",
    async () => {
      const { term, server } = await startAgent([reply(text("got three")), reply(text("got many"))], { terminal: "tmux" });
      await term.paste("line one\r\nline two\r\nline three");
      await term.waitFor("> line one\n  line two\n  line three");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("got three") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("line one\nline two\nline three");
      const big = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`).join("\n");
      await term.type("look: ");
      await term.paste(big);
      await term.waitFor("> look: [pasted 12 lines]");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("got many") && atPrompt(s));
      expect(lastUserText(server, 1)).toBe(`look: ${big}`);
    },
    TEST_TIMEOUT_MS,
  );

  test.skipIf(!TMUX)(
    "CRLF pasted through tmux's LF-to-CR conversion (CR CR) is one break per line, not two",
    async () => {
      const { term, server } = await startAgent([reply(text("got three"))], { terminal: "tmux" });
      await term.paste("line one\r\nline two\r\nline three", { lfAsCr: true });
      await term.waitFor("> line one\n  line two\n  line three");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("got three") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("line one\nline two\nline three");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "\\ then Enter, and Alt+Enter, continue the input on a new line",
    async () => {
      const { term, server } = await startAgent([reply(text("three lines"))]);
      await term.type("first\\");
      await term.waitFor("> first\\");
      await term.keys("Enter");
      await term.type("second");
      await term.waitFor("> first\n  second");
      await term.keys("M-Enter");
      await term.type("third");
      await term.waitFor("> first\n  second\n  third");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("three lines") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("first\nsecond\nthird");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "CJK and emoji: the cursor moves by character and long input wraps by display width",
    async () => {
      const { term, server } = await startAgent([reply(text("seen")), reply(text("seen wide"))], { width: 40 });
      await term.type("日本語 😀 end");
      await term.waitFor("> 日本語 😀 end");
      await term.keys("Left", "Left", "Left", "Left", "Left");
      await term.type("X");
      await term.waitFor("> 日本語 X😀 end");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("seen") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("日本語 X😀 end");
      // 24 wide characters after "> " are 50 cells: 19 fill a 40-column row, 5 go on the next.
      await term.type("漢字".repeat(12));
      await term.waitFor(`> ${"漢字".repeat(9)}漢\n字漢字漢字`);
      await term.keys("BSpace", "BSpace");
      await term.waitFor((s) => s.trimEnd().endsWith(`> ${"漢字".repeat(9)}漢\n字漢字`));
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("seen wide") && atPrompt(s));
      expect(lastUserText(server, 1)).toBe("漢字".repeat(11));
    },
    TEST_TIMEOUT_MS,
  );

  test.skipIf(!TMUX)(
    "a resize redraws the prompt in place, without copies of it in the scrollback",
    async () => {
      const { term, server } = await startAgent([reply(text("resized fine"))], { width: 60, terminal: "tmux" });
      const typed = "a fairly long question that wraps once the terminal is narrow enough";
      await term.type(typed);
      await term.waitFor("> a fairly long");
      await term.resize(30, 40);
      await term.waitFor(/> a fairly long question that ?\nwraps once/);
      await term.resize(100, 40);
      await term.waitFor(`> ${typed}`);
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("resized fine") && atPrompt(s));
      const screen = await term.screen();
      expect(screen.match(/> a fairly long/g)).toHaveLength(1);
      expect(lastUserText(server, 0)).toBe(typed);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a status line with a spinner, the activity, elapsed seconds and the Esc hint, gone when the turn ends",
    async () => {
      const slow = held("thought about it");
      const { term } = await startAgent([slow.step, reply(toolUse("Bash", { command: "sleep 1.5; echo slept" })), reply(text("after the tool"))], {
        args: ["--allowedTools", "Bash"],
      });
      await submit(term, "think");
      await term.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Thinking… \(\d+s · esc to interrupt\)/);
      slow.release();
      await term.waitFor((s) => s.includes("thought about it") && atPrompt(s));
      expect(await term.screen()).not.toContain("Thinking…");
      await submit(term, "run something");
      await term.waitFor(/Running Bash… \(\d+s · ↓ \d+ tokens · esc to interrupt\)/);
      await term.waitFor((s) => s.includes("after the tool") && atPrompt(s));
      expect(await term.screen()).not.toContain("Running Bash…");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Esc interrupts a streaming answer: the partial answer stays, the interrupt is marked, roles alternate",
    async () => {
      let release!: () => void;
      const stall = new Promise<void>((r) => (release = r));
      const { term, server } = await startAgent([{ content: [text("Partial line one\nmore to come")], stall }, reply(text("fresh answer"))]);
      await submit(term, "tell me a story");
      await term.waitFor("Partial line one");
      await term.keys("Escape");
      await term.waitFor((s) => s.includes("Interrupted.") && atPrompt(s));
      release();
      await submit(term, "shorter please");
      await term.waitFor((s) => s.includes("fresh answer") && atPrompt(s));
      const messages = server.requests[1]!.body.messages.filter(conversational);
      expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
      expect(messageTexts(messages)).toEqual(["tell me a story", "Partial line one\nmore to come", `${INTERRUPT_MARKER}|shorter please`]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Ctrl-C clears typed input at the prompt; Esc there does nothing",
    async () => {
      const { term, server } = await startAgent([reply(text("only this"))]);
      await term.type("draft that I regret");
      await term.waitFor("> draft that I regret");
      await term.keys("C-c");
      await term.waitFor((s) => !s.includes("draft that I regret") && s.includes("press Ctrl-C again to exit"));
      await term.keys("Escape");
      await submit(term, "real question");
      await term.waitFor((s) => s.includes("only this") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("real question");
      await waitUntil(() => server.requests.length === 1);
    },
    TEST_TIMEOUT_MS,
  );
});

describe("rendered answers", () => {
  test(
    "Markdown is rendered while it streams: heading, emphasis, list, table, fenced code, wrapped at words",
    async () => {
      const answer = [
        "# Fruit report",
        "",
        "Some **bold** words and `inline code` in a sentence long enough to be wrapped at a word boundary here.",
        "",
        "- apples",
        "- kiwis",
        "",
        "| Fruit | Count |",
        "|-------|------:|",
        "| apple | 3 |",
        "| kiwi | 12 |",
        "",
        "```ts",
        "const total = 15;",
        "```",
        "",
        "<b>raw</b> stays as written.",
      ].join("\n");
      const { term } = await startAgent([reply(text(answer))], { width: 60 });
      await submit(term, "report");
      const screen = await term.waitFor((s) => s.includes("stays as written.") && atPrompt(s));
      const shown = screen.slice(screen.indexOf("> report"));
      expect(shown).toContain("\nFruit report\n");
      expect(shown).not.toContain("# Fruit");
      expect(shown).not.toContain("**");
      // Wrapped between words at 60 columns, never inside one.
      expect(shown).toContain("Some bold words and `inline code` in a sentence long enough\nto be wrapped at a word boundary here.\n");
      expect(shown).toContain("• apples\n• kiwis\n");
      expect(shown).toContain(
        ["┌───────┬───────┐", "│ Fruit │ Count │", "├───────┼───────┤", "│ apple │     3 │", "│ kiwi  │    12 │", "└───────┴───────┘"].join("\n"),
      );
      expect(shown).toContain("\n  const total = 15;\n");
      expect(shown).not.toContain("```");
      expect(shown).toContain("<b>raw</b> stays as written.");
    },
    TEST_TIMEOUT_MS,
  );
});
