/** The editing keys of the prompt: how each decoded key (key-decoder.ts) changes an input being typed (line-editor.ts). */
import type { Key } from "./key-decoder.ts";
import type { LineEditor } from "./line-editor.ts";

/** Applies one editing key to `editor`; keys that are not editing keys (Enter, Tab, Esc, Ctrl-C, Ctrl-L…) do nothing. */
export function applyEditingKey(editor: LineEditor, key: Key): void {
  switch (key.kind) {
    case "text":
      return editor.insert(key.text);
    case "paste":
      return editor.paste(key.text);
    case "newline":
      return editor.insert("\n");
    case "backspace":
      return editor.backspace();
    case "delete":
      return editor.delete();
    case "left":
      return editor.left();
    case "right":
      return editor.right();
    case "up":
      return editor.up();
    case "down":
      return editor.down();
    case "home":
    case "ctrl-a":
      return editor.home();
    case "end":
    case "ctrl-e":
      return editor.end();
    case "word-left":
      return editor.wordLeft();
    case "word-right":
      return editor.wordRight();
    case "ctrl-u":
      return editor.killBefore();
    case "ctrl-k":
      return editor.killAfter();
    case "ctrl-w":
      return editor.killWord();
  }
}
