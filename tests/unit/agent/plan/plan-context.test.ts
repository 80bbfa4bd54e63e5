/**
 * Plan mode's note to the model: where ExitPlanMode is offered (the session, host mode) it may ask
 * the user and hands the plan over with the tool; in -p, where nobody answers, it is told neither.
 */
import { expect, test } from "bun:test";
import { planModeNote } from "../../../../lib/agent/plan/plan-context.ts";

test("with ExitPlanMode offered, the note invites questions and names the tool", () => {
  const note = planModeNote("/home/u/.claude/plans/a-b-c.md", true);
  expect(note).toContain("ask the user questions when something is unclear");
  expect(note).toContain("call ExitPlanMode");
  expect(note).toContain("/home/u/.claude/plans/a-b-c.md");
});

test("without it (-p), the note neither invites questions nor names ExitPlanMode", () => {
  const note = planModeNote("/home/u/.claude/plans/a-b-c.md", false);
  expect(note).not.toContain("ask the user");
  expect(note).not.toContain("ExitPlanMode");
  expect(note).toContain("Nobody can answer questions during this run");
  expect(note).toContain("end your turn with the whole plan as your answer");
});
