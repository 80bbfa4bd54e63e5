/**
 * The prompt's line editor (lib/cli/repl/prompt/line-editor.ts): graphemes, continuation, paste placeholders, history.
 */
import { describe, expect, test } from "bun:test";
import { LineEditor } from "../../../../../lib/cli/repl/prompt/line-editor.ts";

describe("line editor", () => {
  test("the cursor moves over whole graphemes: emoji, flags, CJK", () => {
    const e = new LineEditor();
    e.insert("a😀🇫🇷日");
    e.left();
    e.left();
    e.insert("|");
    expect(e.text).toBe("a😀|🇫🇷日");
    e.backspace();
    e.backspace();
    expect(e.text).toBe("a🇫🇷日");
  });

  test("\\ before Enter continues the line; Enter returns the whole input", () => {
    const e = new LineEditor();
    e.insert("one\\");
    expect(e.enter()).toBeUndefined();
    e.insert("two");
    expect(e.enter()).toBe("one\ntwo");
    expect(e.text).toBe("");
  });

  test("a large paste is a placeholder, expanded on submit, removed whole by Backspace", () => {
    const e = new LineEditor();
    const big = Array.from({ length: 20 }, (_, i) => `l${i}`).join("\n");
    e.insert("see ");
    e.paste(big);
    expect(e.text).toBe("see [pasted 20 lines]");
    expect(e.enter()).toBe(`see ${big}`);
    e.paste(big);
    e.backspace();
    expect(e.text).toBe("");
    // The final newline of a copied block ends its last line; it is not one more line.
    e.paste(`${big}\n`);
    expect(e.text).toBe("[pasted 20 lines]");
    e.backspace();
    e.paste("short\npaste");
    expect(e.text).toBe("short\npaste");
  });

  test("Up and Down move between lines, then through history, back to the draft", () => {
    const e = new LineEditor(["newest", "older"]);
    e.insert("draft");
    e.up();
    expect(e.text).toBe("newest");
    e.up();
    expect(e.text).toBe("older");
    e.down();
    e.down();
    expect(e.text).toBe("draft");
    e.set("ab\ncd");
    e.up();
    e.insert("X");
    expect(e.text).toBe("abX\ncd");
  });

  test("word and line kills", () => {
    const e = new LineEditor();
    e.insert("hello big world");
    e.killWord();
    expect(e.text).toBe("hello big ");
    e.home();
    e.killAfter();
    expect(e.text).toBe("");
  });
});
