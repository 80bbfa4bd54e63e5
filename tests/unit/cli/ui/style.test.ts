/**
 * Colours (lib/cli/ui/style.ts): when they are on, and plain text otherwise.
 */
import { describe, expect, test } from "bun:test";
import { colorEnabled, createStyle, plainUnlessColor } from "../../../../lib/cli/ui/style.ts";

describe("colours", () => {
  test("only on a terminal, and never with NO_COLOR", () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(createStyle(true).red("x")).toBe("\x1b[31mx\x1b[39m");
    expect(createStyle(false).red("x")).toBe("x");
  });

  test("servers' lines keep their codes on a colour stream and lose them elsewhere", () => {
    const seen: string[] = [];
    plainUnlessColor((l) => seen.push(l), true)("\x1b[31mred\x1b[0m");
    plainUnlessColor((l) => seen.push(l), false)("\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07");
    expect(seen).toEqual(["\x1b[31mred\x1b[0m", "red link"]);
  });
});
