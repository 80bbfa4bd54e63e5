/**
 * Permission prompts through a pseudo-terminal (tests/support/pty-term.ts): every change is seen before it is approved
 * (Edit and Write diffs, a new file's head, Bash's whole command), and a refusal can tell the model why.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

const NUMBERS = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n";

describe("permission prompts", () => {
  test(
    "Edit shows a unified diff of the change with context before asking",
    async () => {
      const { term, dir } = await startAgent([reply(toolUse("Edit", { file_path: "n.txt", old_string: "five", new_string: "FIVE" })), reply(text("edited"))], {
        setup: (d) => writeFileSync(join(d, "n.txt"), NUMBERS),
      });
      await submit(term, "shout five");
      const screen = await term.waitFor("Allow Edit(n.txt)? [y]es / [n]o / [a]lways: accept edits for this session");
      expect(screen).toContain("@@ -2,7 +2,7 @@\n two\n three\n four\n-five\n+FIVE\n six\n seven\n eight\n");
      expect(screen).not.toContain(" one\n");
      expect(readFileSync(join(dir, "n.txt"), "utf8")).toBe(NUMBERS);
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("edited") && atPrompt(s));
      expect(readFileSync(join(dir, "n.txt"), "utf8")).toBe(NUMBERS.replace("five", "FIVE"));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Write shows a diff against the file it replaces, or the head of a new file",
    async () => {
      const { term } = await startAgent(
        [
          reply(toolUse("Write", { file_path: "old.txt", content: "keep\nnew line\n" })),
          reply(toolUse("Write", { file_path: "fresh.txt", content: Array.from({ length: 14 }, (_, i) => `line ${i + 1}`).join("\n") })),
          reply(text("written")),
        ],
        { setup: (d) => writeFileSync(join(d, "old.txt"), "keep\nold line\n") },
      );
      await submit(term, "write both");
      let screen = await term.waitFor("Allow Write(old.txt)?");
      expect(screen).toContain(" keep\n-old line\n+new line\n");
      await term.type("y");
      await term.keys("Enter");
      screen = await term.waitFor("Allow Write(fresh.txt)?");
      expect(screen).toContain("new file, 14 lines\n+ line 1\n+ line 2\n");
      expect(screen).toContain("+ line 10\n… +4 lines\n");
      expect(screen).not.toContain("+ line 11");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("written") && atPrompt(s));
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "Bash shows the whole command; a refusal with a sentence reaches the model",
    async () => {
      const command = "cd build &&\n  make clean &&\n  make all";
      const { term, server } = await startAgent([reply(toolUse("Bash", { command, description: "Rebuild everything" })), reply(text("ok, I will not"))]);
      await submit(term, "rebuild");
      const screen = await term.waitFor("Allow Bash(cd build && ⏎ make clean && ⏎ make all)?");
      expect(screen).toContain("Rebuild everything\n  cd build &&\n    make clean &&\n    make all\n");
      await term.type("n, the build folder is shared");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("ok, I will not") && atPrompt(s));
      const result = server.requests[1]!.body.messages.at(-1).content[0];
      expect(result.is_error).toBe(true);
      expect(result.content).toBe("The user refused to run Bash. They said: the build folder is shared");
    },
    TEST_TIMEOUT_MS,
  );
});
