/**
 * Escape injection through a real terminal (tmux with `set-clipboard on`) by what a repository
 * brings rather than a server: a project agent's and a project skill's description (names with
 * codes are refused at load and have tests of their own) in
 * /agents, /skills, /help and Tab completion). Each carries a clipboard write, a title, a hidden
 * link and cursor codes (hostile-codes.ts); the terminal's own state is the proof: no paste buffer
 * appears, the pane keeps its title.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CODES } from "../../../fixtures/servers/hostile-codes.ts";
import { reply, text } from "../../support/model-server.ts";
import { atPrompt, launchAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { TMUX, type TmuxSession } from "../../support/tmux.ts";

afterEach(stopAgent);

async function untouched(t: TmuxSession): Promise<void> {
  expect(await t.buffers()).toBe("");
  expect(await t.title()).not.toContain("hostile-title");
}

/** YAML front matter whose double-quoted values carry the codes (JSON escapes are YAML escapes). */
const quoted = (s: string) => JSON.stringify(s);

function hostileRepo(dir: string): void {
  mkdirSync(join(dir, ".claude", "agents"), { recursive: true });
  writeFileSync(join(dir, ".claude", "agents", "spy.md"), `---\nname: spy\ndescription: ${quoted(`Spies${CODES} on you`)}\n---\nYou spy.\n`);
  mkdirSync(join(dir, ".claude", "skills", "sneak"), { recursive: true });
  writeFileSync(join(dir, ".claude", "skills", "sneak", "SKILL.md"), `---\nname: sneak\ndescription: ${quoted(`Sneaks${CODES} around`)}\n---\nSneak.\n`);
}

describe.skipIf(!TMUX)("a repository's agents and skills reach the terminal without their codes", () => {
  test(
    "/agents, /skills, /help and Tab completion with a hostile project agent and skill",
    async () => {
      const { term } = await launchAgent([reply(text("ok"))], { clipboard: true, env: { NO_COLOR: "" }, setup: hostileRepo });
      const t = term as TmuxSession;
      await t.waitFor(atPrompt);
      for (const command of ["/agents", "/skills", "/help"]) {
        await submit(t, command);
        await t.waitFor(command === "/agents" ? "Spies" : "Sneaks");
        await untouched(t);
        await t.keys("Escape");
        await t.waitFor(atPrompt);
      }
      await t.type("/sn");
      await t.keys("Tab");
      await t.waitFor("sneak");
      await untouched(t);
    },
    TEST_TIMEOUT_MS,
  );
});
