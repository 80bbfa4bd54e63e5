/**
 * The permission modes in the interactive session, tried as a new user would (a fresh home, the
 * real program in a pseudo-terminal): --permission-mode and the settings' `defaultMode` are applied by the one
 * decision every mode shares, so acceptEdits writes without a question, dontAsk refuses without one,
 * and bypassPermissions runs everything.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

const script = () => [
  reply(toolUse("Write", { file_path: "a.txt", content: "A" })),
  reply(toolUse("Bash", { command: "echo ran > b.txt" })),
  reply(text("all done")),
];

/** Write runs at once; Bash still asks (refused here); the turn ends. */
async function acceptsEdits(opts: Parameters<typeof startAgent>[1]) {
  const { term, dir } = await startAgent(script(), opts);
  await submit(term, "write and run");
  const screen = await term.waitFor("Allow Bash(echo ran > b.txt)?");
  expect(screen).not.toContain("Allow Write");
  expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
  await term.type("n");
  await term.keys("Enter");
  await term.waitFor((s) => s.includes("all done") && atPrompt(s));
  expect(existsSync(join(dir, "b.txt"))).toBe(false);
}

describe("permission modes in the session", () => {
  test(
    "--permission-mode acceptEdits: Write runs without a question, Bash still asks",
    () => acceptsEdits({ args: ["--permission-mode", "acceptEdits"] }),
    TEST_TIMEOUT_MS,
  );

  test(
    "the user's settings defaultMode acceptEdits applies in the session",
    () => {
      const config = tempDir("agent-config-");
      writeFileSync(join(config, "settings.json"), JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }));
      return acceptsEdits({ env: { CLAUDE_CONFIG_DIR: config } });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "--permission-mode dontAsk: what needs permission is refused without a question, and the model reads why",
    async () => {
      const { term, dir, server } = await startAgent([reply(toolUse("Bash", { command: "echo ran > b.txt" })), reply(text("refused then"))], {
        args: ["--permission-mode", "dontAsk"],
      });
      await submit(term, "run it");
      const screen = await term.waitFor((s) => s.includes("refused then") && atPrompt(s));
      expect(screen).not.toContain("Allow Bash");
      expect(existsSync(join(dir, "b.txt"))).toBe(false);
      expect(server.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({
        is_error: true,
        content: "Permission to use Bash was not granted (--permission-mode dontAsk).",
      });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "--permission-mode bypassPermissions: everything runs without a question",
    async () => {
      const { term, dir } = await startAgent(script(), { args: ["--permission-mode", "bypassPermissions"] });
      await submit(term, "write and run");
      const screen = await term.waitFor((s) => s.includes("all done") && atPrompt(s));
      expect(screen).not.toContain("Allow ");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
      expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("ran\n");
    },
    TEST_TIMEOUT_MS,
  );
});
