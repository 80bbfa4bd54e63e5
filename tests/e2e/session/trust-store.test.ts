/**
 * One trust store: the yes the session's settings question records is what `-p` reads, so the
 * advice of `-p`'s warning ("run the agent interactively here once and accept the trust
 * question") works; and a rule the user saves with `[a]lways` does not bring the question back.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { PROGRAM, runAgent, tempDir } from "../../support/run.ts";
import { atPrompt, submit, TEST_TIMEOUT_MS, terminalEnv } from "../../support/repl.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";

const QUESTION = "Apply them? [y]es / [n]o";

let term: TmuxSession | undefined;
let model: ModelServer | undefined;
afterEach(async () => {
  await term?.kill();
  model?.stop();
  term = model = undefined;
});

/** A repository whose own settings allow `echo`, and a HOME of its own. */
function repository() {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  mkdirSync(join(dir, ".claude"));
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(echo:*)"] } }));
  return { dir, home };
}

async function session(dir: string, home: string, script = [reply(text("ok"))]): Promise<TmuxSession> {
  await term?.kill();
  model?.stop();
  model = startModelServer(script);
  term = await TmuxSession.start({ command: [PROGRAM], cwd: dir, env: terminalEnv(home, model.url) });
  return term;
}

/** `-p` calls Bash echo in default mode: allowed only by the repository's rule, which needs trust. */
async function printRun(dir: string, home: string) {
  const server = startModelServer([reply(toolUse("Bash", { command: "echo allowed" })), reply(text("done"))]);
  try {
    const run = await runAgent(["-p", "go", "--permission-mode", "default"], { cwd: dir, model: server.url, env: { HOME: home } });
    const result = server.requests[1]?.body.messages.at(-1).content[0];
    return { ...run, result };
  } finally {
    server.stop();
  }
}

describe.skipIf(!TMUX)("one trust store for the session and -p", () => {
  test(
    "-p's warning says to accept the session's question; once accepted, -p applies the repository's allow rule",
    async () => {
      const r = repository();
      const before = await printRun(r.dir, r.home);
      expect(before.stderr).toContain("this workspace has not been trusted. Run the agent interactively here once and accept the trust question");
      expect(before.result.is_error).toBe(true);

      const t = await session(r.dir, r.home);
      await t.waitFor(QUESTION);
      await t.type("y");
      await t.keys("Enter");
      await t.waitFor(atPrompt);
      await t.keys("C-d");
      await t.waitForExit();

      const after = await printRun(r.dir, r.home);
      expect(after.stderr).toBe("");
      expect(after.result).toMatchObject({ content: "allowed" });
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a rule saved with [a]lways keeps the folder approved: no question next time, and -p applies it",
    async () => {
      const r = repository();
      const t = await session(r.dir, r.home, [reply(toolUse("Bash", { command: "ls -a" })), reply(text("listed"))]);
      await t.waitFor(QUESTION);
      await t.type("y");
      await t.keys("Enter");
      await t.waitFor(atPrompt);
      await submit(t, "list");
      await t.waitFor("[a]lways: save Bash(ls:*) to .claude/settings.local.json");
      await t.type("a");
      await t.keys("Enter");
      await t.waitFor((s) => s.includes("listed") && atPrompt(s));
      expect(JSON.parse(readFileSync(join(r.dir, ".claude", "settings.local.json"), "utf8")).permissions.allow).toEqual(["Bash(ls:*)"]);
      await t.keys("C-d");
      await t.waitForExit();

      const again = await session(r.dir, r.home);
      await again.waitFor(atPrompt);
      expect(await again.screen()).not.toContain(QUESTION);
      expect((await printRun(r.dir, r.home)).stderr).toBe("");
    },
    TEST_TIMEOUT_MS,
  );
});
