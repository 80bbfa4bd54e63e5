import { expect, test } from "bun:test";
import { TurnStatus } from "../../lib/cli/ui-activity.ts";
import { createStyle } from "../../lib/cli/ui-style.ts";

test("the status line says what Esc does: interrupt the turn, or cancel the question on screen", () => {
  const shown: (string | undefined)[] = [];
  const status = new TurnStatus((l) => shown.push(l), createStyle(false));
  status.start();
  try {
    expect(shown.at(-1)).toMatch(/Thinking… \(0s · esc to interrupt\)$/);
    status.asking("Waiting for your answer to fx…");
    expect(shown.at(-1)).toMatch(/Waiting for your answer to fx… \(0s · esc to cancel\)$/);
    status.set("Running Bash…");
    expect(shown.at(-1)).toMatch(/Running Bash… \(0s · esc to interrupt\)$/);
  } finally {
    status.stop();
  }
  expect(shown.at(-1)).toBeUndefined();
});
