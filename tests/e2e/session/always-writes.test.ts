/**
 * The session's `[a]lways` through a pseudo-terminal (tests/support/pty-term.ts): a command that writes a file through a
 * redirect, and a command an ask rule matched, are offered yes or no only, never a prefix rule
 * that would let the program write anywhere or silence the ask rule.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

describe("[a]lways never offers a rule that grants more than asked", () => {
  test(
    "a redirecting command gets [y]es / [n]o only; answering a saves nothing",
    async () => {
      const { term, dir } = await startAgent([reply(toolUse("Bash", { command: "echo hi > out.txt" })), reply(text("wrote"))]);
      await submit(term, "write it");
      const screen = await term.waitFor("Allow Bash(echo hi > out.txt)? [y]es / [n]o");
      expect(screen).not.toContain("[a]lways");
      await term.type("a");
      await term.keys("Enter");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("wrote") && atPrompt(s));
      expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("hi\n");
      expect(existsSync(join(dir, ".claude", "settings.local.json"))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a command an ask rule matched gets [y]es / [n]o only",
    async () => {
      const { term } = await startAgent([reply(toolUse("Bash", { command: "echo asked" })), reply(text("ran"))], {
        setup: (d) => {
          mkdirSync(join(d, ".claude"));
          writeFileSync(join(d, ".claude", "settings.json"), JSON.stringify({ permissions: { ask: ["Bash(echo:*)"] } }));
        },
      });
      await submit(term, "ask me");
      const screen = await term.waitFor("Allow Bash(echo asked)? [y]es / [n]o");
      expect(screen).not.toContain("[a]lways");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("ran") && atPrompt(s));
    },
    TEST_TIMEOUT_MS,
  );
});
