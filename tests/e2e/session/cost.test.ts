/**
 * `/cost` in the interactive session, through the real program in a pseudo-terminal: a call whose stream was
 * interrupted with Esc is counted (the API billed it; its usage from message_start).
 */
import { afterEach, describe, test } from "bun:test";
import { reply, text, withUsage } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

describe("/cost in the session", () => {
  test(
    "counts a call whose stream was interrupted: the API billed it",
    async () => {
      let release!: () => void;
      const stall = new Promise<void>((r) => (release = r));
      const interrupted = withUsage({ content: [text("Partial answer")], stall }, { input_tokens: 1000, output_tokens: 7 });
      const { term } = await startAgent([interrupted, withUsage(reply(text("fresh answer")), { input_tokens: 20, output_tokens: 3 })]);
      await submit(term, "tell me a story");
      await term.waitFor("Partial answer");
      await term.keys("Escape");
      await term.waitFor((s) => s.includes("Interrupted.") && atPrompt(s));
      release();
      await submit(term, "shorter please");
      await term.waitFor((s) => s.includes("fresh answer") && atPrompt(s));
      await submit(term, "/cost");
      // claude-sonnet-4-6: $3 per million input tokens, $15 per million output tokens.
      const cost = ((1020 * 3 + 10 * 15) / 1e6).toFixed(4);
      await term.waitFor(`cost $${cost} · input 1020 · output 10 · cache write 0 · cache read 0 tokens`);
    },
    TEST_TIMEOUT_MS,
  );
});
