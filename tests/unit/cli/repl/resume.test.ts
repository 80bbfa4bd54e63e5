/** resumedScreen (lib/cli/repl/resume.ts): a hook's words for the model are not redrawn as a typed prompt. */
import { expect, test } from "bun:test";
import { Conversation } from "../../../../lib/agent/conversation.ts";
import { resumedScreen } from "../../../../lib/cli/repl/resume.ts";
import { createStyle } from "../../../../lib/cli/ui/style.ts";

test("SessionStart and UserPromptSubmit hook output is shown as such, never after `> `", () => {
  const c = new Conversation("s1");
  c.append({
    role: "user",
    content: [
      { type: "text", text: "SessionStart:startup hook success: welcome back" },
      { type: "text", text: "fix the bug" },
      { type: "text", text: "UserPromptSubmit hook success: branch is main" },
    ],
  });
  c.append({ role: "assistant", content: [{ type: "text", text: "done" }] });
  const screen = resumedScreen(c, createStyle(false), "/tmp");
  expect(screen).toContain("> fix the bug");
  expect(screen).toContain("SessionStart:startup hook success: welcome back");
  expect(screen).not.toContain("> SessionStart");
  expect(screen).not.toContain("> UserPromptSubmit");
});
