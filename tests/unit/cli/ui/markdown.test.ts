/**
 * Markdown rendering (lib/cli/ui/markdown.ts), streamed and whole, with highlighting.
 */
import { describe, expect, test } from "bun:test";
import { MarkdownStream, renderMarkdown, wrapWords } from "../../../../lib/cli/ui/markdown.ts";
import { highlightLine } from "../../../../lib/cli/ui/highlight.ts";
import { createStyle } from "../../../../lib/cli/ui/style.ts";

describe("markdown", () => {
  const plain = createStyle(false);
  const color = createStyle(true);

  test("streamed in any pieces, it renders the same as whole; nothing is dropped", () => {
    const md = "# T\n\npara *x*\n\n```js\nlet a = 'q'; // c\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div>x</div>\n\n[^1]: note";
    const stream = new MarkdownStream(() => 40, plain);
    let out = "";
    for (const ch of md) out += stream.push(ch);
    out += stream.end();
    expect(out).toBe(`${renderMarkdown(md, 40, plain).join("\n")}\n`);
    expect(out).toContain("<div>x</div>");
    expect(out).toContain("[^1]: note");
  });

  test("the block still arriving is shown live, not printed", () => {
    const stream = new MarkdownStream(() => 40, plain);
    expect(stream.push("Half a para")).toBe("");
    expect(stream.pending()).toEqual(["Half a para"]);
    expect(stream.push("graph.\n\nNext")).toBe("Half a paragraph.\n\n");
    expect(stream.pending()).toEqual(["Next"]);
  });

  test("a table too wide for the terminal is shown as written", () => {
    const md = "| aaaaaaaaaa | bbbbbbbbbb |\n|---|---|\n| 1 | 2 |";
    expect(renderMarkdown(md, 20, plain)).toEqual(md.split("\n"));
  });

  test("code is coloured: keywords, strings, numbers, comments; the text is unchanged", () => {
    const line = highlightLine('const s = "x"; // 1', "ts", color);
    expect(line).toBe('\x1b[35mconst\x1b[39m s = \x1b[32m"x"\x1b[39m; \x1b[2m// 1\x1b[22m');
    expect(Bun.stripANSI(highlightLine("x = 3 # py", "python", color))).toBe("x = 3 # py");
    expect(highlightLine("const", "ts", plain)).toBe("const");
  });

  test("words wrap at spaces by display width; a word wider than the line is broken", () => {
    expect(wrapWords("日本 語です and more", 8)).toEqual(["日本", "語です", "and more"]);
    expect(wrapWords("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
  });
});
