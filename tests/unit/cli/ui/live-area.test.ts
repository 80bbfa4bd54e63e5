/**
 * Wrapping by display width (lib/cli/ui/live-area.ts).
 */
import { describe, expect, test } from "bun:test";
import { wrapLine } from "../../../../lib/cli/ui/live-area.ts";

describe("wrapping by display width", () => {
  test("wide characters move to the next row whole; SGR codes take no room; the cursor follows", () => {
    expect(wrapLine("> 漢字漢", 6).rows).toEqual(["> 漢字", "漢"]);
    expect(wrapLine("\x1b[2mabc\x1b[22m", 3).rows).toEqual(["\x1b[2mabc\x1b[22m"]);
    expect(wrapLine("> 漢字漢", 6, 5).cursor).toEqual({ row: 1, col: 2 });
    // A cursor after a full row sits at the start of a new one.
    expect(wrapLine("abc", 3, 3)).toEqual({ rows: ["abc", ""], widths: [3, 0], cursor: { row: 1, col: 0 } });
  });
});
