/**
 * The turn view (lib/cli/ui/turn-view.ts): what a turn draws, plain and live.
 */
import { describe, expect, test } from "bun:test";
import { createStyle } from "../../../../lib/cli/ui/style.ts";
import { toolResultPreview } from "../../../../lib/cli/ui/tool-lines.ts";
import { PlainLines, TurnView } from "../../../../lib/cli/ui/turn-view.ts";
import { TurnStatus } from "../../../../lib/cli/ui/turn-status.ts";

const plain = createStyle(false);

describe("turn view", () => {
  test("text prints in whole lines; tool lines below it, labelled when interleaved; progress in place", () => {
    const printed: string[] = [];
    const activity: string[][] = [];
    const screen = { print: (s: string) => printed.push(s), setActivity: (l: string[]) => activity.push(l), setPending: () => {}, columns: 120 };
    const status = new TurnStatus(() => {}, plain);
    const view = new TurnView(screen, plain, "/w", new PlainLines(), status);
    const read = { type: "tool_use" as const, id: "t1", name: "Read", input: { file_path: "/w/a.txt" } };
    const glob = { type: "tool_use" as const, id: "t2", name: "Glob", input: { pattern: "*" } };
    view.text("Let me ");
    view.text("look.");
    expect(printed).toEqual([]);
    view.toolStart(read);
    view.toolProgress(read, "halfway");
    view.toolProgress(read, "almost");
    view.toolEnd(read, { type: "tool_result", tool_use_id: "t1", content: "hello\nworld" });
    view.toolStart(read);
    view.toolStart(glob);
    view.toolEnd(read, { type: "tool_result", tool_use_id: "t1", content: "gone", is_error: true });
    expect(printed.join("")).toBe(["Let me look.\n● Read(a.txt)", "  ⎿  hello\n     world", "● Read(a.txt)", "● Glob(*)", "  ⎿  Read: Error: gone"].join(""));
    expect(activity.slice(0, 3)).toEqual([["  ⋯  halfway"], ["  ⋯  almost"], []]);
  });

  test("a long result shows its first lines and how many more", () => {
    expect(toolResultPreview("a\nb\nc\nd\ne", false, plain)).toBe("  ⎿  a\n     b\n     c\n     … +2 lines");
    // Indentation is the shape of a JSON or code result: kept.
    expect(toolResultPreview('{\n  "action": "cancel"\n}', false, plain)).toBe('  ⎿  {\n       "action": "cancel"\n     }');
  });
});
