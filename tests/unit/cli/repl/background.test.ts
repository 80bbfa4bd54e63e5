/**
 * The session's line for a background notice: what the model is told, in brief. A Monitor event
 * shows its first line (the user sees what the model heard), cleaned of terminal codes.
 */
import { expect, test } from "bun:test";
import type { Notice } from "../../../../lib/agent/background/notice.ts";
import type { TaskRegistry } from "../../../../lib/agent/background/registry.ts";
import { eventGist, noticeTurn } from "../../../../lib/cli/repl/background.ts";
import { createStyle } from "../../../../lib/cli/ui/style.ts";

const registryWith = (notices: Notice[]) => ({ takeNotices: () => notices }) as unknown as TaskRegistry;

test("a Monitor event's notice line shows its first line and counts the rest", () => {
  const turn = noticeTurn(registryWith([{ taskId: "b1234567a", summary: 'Monitor event: "ticker"', event: "tick 1\ntick 2\ntick 3" }]), createStyle(false));
  expect(turn?.line).toBe('⎿ background notice for the model: b1234567a: Monitor event: "ticker" — tick 1 (+2 lines)');
});

test("a command's notice line is its summary alone", () => {
  const turn = noticeTurn(
    registryWith([{ taskId: "b1234567a", summary: 'Background command "npm test" completed (exit code 0)', status: "completed" }]),
    createStyle(false),
  );
  expect(turn?.line).toBe('⎿ background notice for the model: b1234567a: Background command "npm test" completed (exit code 0)');
});

test("an event line's terminal codes never reach the screen", () => {
  expect(eventGist("\x1b[2Jcleared\x07")).not.toMatch(/[\x00-\x1f]/);
  expect(eventGist("one\ntwo")).toBe(" — one (+1 line)");
  expect(eventGist(undefined)).toBe("");
  expect(eventGist("\n  \n")).toBe("");
});
