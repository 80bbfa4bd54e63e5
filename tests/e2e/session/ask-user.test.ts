/**
 * AskUserQuestion in the interactive session (the real program in tmux, a scripted model): the
 * picker takes arrows, Space and Enter, an "Other" row takes the user's own words, the answers
 * reach the model as the tool's result; Esc dismisses with one clear result; a call breaking the
 * schema is refused without a picker.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type RecordedRequest, reply, text, toolUse } from "../../support/model-server.ts";
import { TMUX } from "../../support/tmux.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

const opt = (label: string) => ({ label, description: `about ${label}` });
const LIB = { question: "Which library?", header: "Library", options: [opt("alpha"), opt("beta"), opt("gamma")], multiSelect: false };
const FEATURES = { question: "Which features?", header: "Features", options: [opt("x-ray"), opt("yoke"), opt("zeta")], multiSelect: true };
const result = (req: RecordedRequest) => req.body.messages.at(-1).content[0];

describe.skipIf(!TMUX)("AskUserQuestion in the session", () => {
  test(
    "arrows and Enter pick one; Space ticks several; the answers reach the model",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("AskUserQuestion", { questions: [LIB, FEATURES] })), reply(text("thanks"))]);
      await submit(term, "ask me");
      await term.waitFor((s) => s.includes("[Library] Which library?") && s.includes("Other:"));
      await term.keys("Down", "Enter");
      await term.waitFor("[Features] Which features?");
      await term.keys("Space", "Down", "Down", "Space");
      await term.waitFor((s) => (s.match(/\[x\]/g) ?? []).length === 2);
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("thanks") && atPrompt(s));
      const r = result(server.requests[1]!);
      expect(r.is_error).toBeFalsy();
      expect(r.content).toBe('The user answered your questions: "Which library?"="beta", "Which features?"="x-ray, zeta". Go on with these answers in mind.');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the Other row takes free text",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("AskUserQuestion", { questions: [LIB] })), reply(text("noted"))]);
      await submit(term, "ask me");
      await term.waitFor("Other:");
      await term.keys("Up");
      await term.type("my own lib");
      await term.waitFor("Other: my own lib");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("noted") && atPrompt(s));
      expect(String(result(server.requests[1]!).content)).toContain('"Which library?"="my own lib"');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Esc dismisses the questions: one clear result for the model",
    async () => {
      const { term, server } = await startAgent([reply(toolUse("AskUserQuestion", { questions: [LIB] })), reply(text("ok then"))]);
      await submit(term, "ask me");
      await term.waitFor("Other:");
      await term.keys("Escape");
      await term.waitFor((s) => s.includes("ok then") && atPrompt(s));
      expect(result(server.requests[1]!)).toMatchObject({ is_error: true, content: expect.stringContaining("dismissed the questions") });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "more options than the schema allows, or none, is refused without a picker",
    async () => {
      const five = { ...LIB, options: [opt("a"), opt("b"), opt("c"), opt("d"), opt("e")] };
      const { term, server } = await startAgent([
        reply(toolUse("AskUserQuestion", { questions: [five] })),
        reply(toolUse("AskUserQuestion", { questions: [{ ...LIB, options: [] }] })),
        reply(text("fixed")),
      ]);
      await submit(term, "ask me");
      const screen = await term.waitFor((s) => s.includes("fixed") && atPrompt(s));
      expect(screen).not.toContain("Other:");
      for (const req of server.requests.slice(1)) {
        expect(result(req)).toMatchObject({ is_error: true, content: expect.stringContaining("must hold 2 to 4 options") });
      }
    },
    TEST_TIMEOUT_MS,
  );
});
