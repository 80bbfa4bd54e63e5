/**
 * The session's pieces for plan mode, the picker and the mode cycle, without a terminal: Shift+Tab
 * decoding, the mode cycle, the plan approval's answers, and the option picker's keys.
 */
import { describe, expect, test } from "bun:test";
import { KeyDecoder, type Key } from "../../../../lib/cli/repl/prompt/key-decoder.ts";
import { SessionMode } from "../../../../lib/cli/repl/planning/mode-cycle.ts";
import { parsePlanAnswer } from "../../../../lib/cli/repl/planning/plan-approval.ts";
import { OptionPicker } from "../../../../lib/cli/repl/planning/option-picker.ts";
import { createStyle } from "../../../../lib/cli/ui/style.ts";

const keys = (...k: (Key["kind"] | string)[]): Key[] =>
  k.map((x) => (["up", "down", "enter", "escape", "backspace"].includes(x) ? ({ kind: x } as Key) : { kind: "text", text: x }));

describe("Shift+Tab", () => {
  test("CSI Z and kitty's shifted Tab decode as shift-tab; plain Tab stays tab", () => {
    const d = new KeyDecoder();
    expect(d.feed("\x1b[Z\x1b[9;2u\t").map((k) => k.kind)).toEqual(["shift-tab", "shift-tab", "tab"]);
  });

  test("cycles default → acceptEdits → plan → default; a bypass session keeps bypass in its cycle", () => {
    const m = new SessionMode("default");
    expect([m.next(), m.next(), m.next()]).toEqual(["acceptEdits", "plan", "default"]);
    expect(m.line()).toBeUndefined();
    m.next();
    expect(m.line()).toContain("accept edits on");
    const b = new SessionMode("bypassPermissions");
    expect([b.next(), b.next(), b.next(), b.next()]).toEqual(["default", "acceptEdits", "plan", "bypassPermissions"]);
  });
});

describe("plan approval answers", () => {
  test("1/2 start, 3 keeps planning with feedback, anything else asks again", () => {
    expect(parsePlanAnswer("1")).toEqual({ start: "acceptEdits" });
    expect(parsePlanAnswer(" 2 ")).toEqual({ start: "default" });
    expect(parsePlanAnswer("3 add tests first")).toEqual({ keep: "add tests first" });
    expect(parsePlanAnswer("3")).toEqual({ keep: "" });
    expect(parsePlanAnswer("no, fewer steps")).toEqual({ keep: "fewer steps" });
    expect(parsePlanAnswer("maybe")).toBeUndefined();
    expect(parsePlanAnswer("12")).toBeUndefined();
  });
});

describe("option picker", () => {
  const q = (multiSelect: boolean) => ({
    question: "Q?",
    header: "H",
    options: [
      { label: "a", description: "" },
      { label: "b", description: "" },
    ],
    multiSelect,
  });
  const press = (p: OptionPicker, ...k: string[]) =>
    keys(...k)
      .map((key) => p.key(key))
      .filter((r) => r !== undefined)[0];

  test("single: the highlighted option; arrows wrap through the Other row", () => {
    expect(press(new OptionPicker(q(false)), "down", "enter")).toEqual({ answer: "b" });
    expect(press(new OptionPicker(q(false)), "up", "up", "enter")).toEqual({ answer: "b" });
  });

  test("multi: Space ticks, Enter answers the ticked ones joined; Other's text joins them", () => {
    expect(press(new OptionPicker(q(true)), " ", "down", " ", "enter")).toEqual({ answer: "a, b" });
    expect(press(new OptionPicker(q(true)), " ", "down", "down", "mine", "enter")).toEqual({ answer: "a, mine" });
  });

  test("Other: empty is no answer yet; typed text is the answer; Esc dismisses", () => {
    const p = new OptionPicker(q(false));
    expect(press(p, "up", "enter")).toBeUndefined();
    expect(press(p, "own words", "enter")).toEqual({ answer: "own words" });
    expect(press(new OptionPicker(q(false)), "escape")).toEqual({ dismissed: true });
  });

  test("labels from the model are drawn without control characters", () => {
    const p = new OptionPicker({ ...q(false), question: "Pick\x1b[2J one?" });
    expect(p.lines(createStyle(false), "").join("\n")).not.toContain("\x1b");
  });
});
