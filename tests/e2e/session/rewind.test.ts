/**
 * `/rewind` in a real terminal (tmux): the earlier messages newest first with their files' line
 * counts; code and conversation (over a file the user changed since, after saying yes), code only,
 * conversation only (a fork: the old session's file is left whole), and Esc twice on an empty input.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, type SessionTerminal, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { tempDir } from "../../support/run.ts";
import { TMUX } from "../../support/tmux.ts";

afterEach(stopAgent);

/** Two turns: the first writes a.txt, the second edits it and creates b.txt. */
function script(dir: () => string) {
  return [
    reply(toolUse("Write", { file_path: join(dir(), "a.txt"), content: "turn one\n" })),
    reply(text("ok one")),
    reply(toolUse("Edit", { file_path: join(dir(), "a.txt"), old_string: "turn one", new_string: "turn two" })),
    reply(toolUse("Write", { file_path: join(dir(), "b.txt"), content: "new\nfile\n" })),
    reply(text("ok two")),
    reply(text("ok three")),
  ];
}

async function twoTurns(term: SessionTerminal) {
  await submit(term, "first change");
  await term.waitFor((s) => s.includes("ok one") && atPrompt(s));
  await submit(term, "second change");
  await term.waitFor((s) => s.includes("ok two") && atPrompt(s));
}

/** Answers the `nth` showing of `question` (earlier dialogs stay on the screen). */
async function answer(term: SessionTerminal, question: string, value: string, nth = 1) {
  await term.waitFor((s) => s.split(question).length > nth);
  await term.type(value);
  await term.keys("Enter");
}

async function start() {
  let dir = "";
  const config = tempDir("agent-config-");
  const started = await startAgent(
    script(() => dir),
    {
      args: ["--permission-mode", "acceptEdits"],
      terminal: "tmux",
      env: { CLAUDE_CONFIG_DIR: config },
      setup: (d) => {
        dir = d;
        writeFileSync(join(d, "a.txt"), "original\n");
      },
    },
  );
  return { ...started, config };
}

const sessionFiles = (config: string) =>
  readdirSync(join(config, "agent-sessions")).flatMap((d) =>
    readdirSync(join(config, "agent-sessions", d))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(config, "agent-sessions", d, f)),
  );

describe.skipIf(!TMUX)("/rewind", () => {
  test(
    "code and conversation, over a file the user changed since (named, then overwritten on yes); the conversation forks",
    async () => {
      const { term, dir, server, config } = await start();
      await twoTurns(term);
      writeFileSync(join(dir, "a.txt"), "the user's change\n");
      await submit(term, "/rewind");
      const listing = await term.waitFor("Rewind to which message?");
      // Newest first, with the files each turn changed.
      expect(listing).toMatch(/1\. second change\s+a\.txt \+1 −1, b\.txt \+2 −0/);
      expect(listing).toMatch(/2\. first change\s+a\.txt \+1 −1/);
      await term.type("1");
      await term.keys("Enter");
      await answer(term, "Restore (1-3", "1");
      const asked = await term.waitFor("Overwrite them?");
      expect(asked).toContain("changed since by someone other than the agent");
      expect(asked).toMatch(/^\s+a\.txt$/m);
      await term.type("y");
      await term.keys("Enter");
      const done = await term.waitFor((s) => s.includes("Conversation rewound") && atPrompt(s));
      expect(done).toContain("deleted");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("turn one\n");
      expect(existsSync(join(dir, "b.txt"))).toBe(false);
      // The old branch stays whole in its own file; the fork names it.
      const files = sessionFiles(config);
      expect(files).toHaveLength(2);
      const saved = files.map((f) => readFileSync(f, "utf8"));
      expect(saved.filter((t) => t.includes("second change"))).toHaveLength(2);
      expect(saved.some((t) => t.includes('"forked_from"'))).toBe(true);

      await submit(term, "third");
      await term.waitFor((s) => s.includes("ok three") && atPrompt(s));
      const sent = server.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role !== "system");
      const texts = sent.map((m: any) => (typeof m.content === "string" ? m.content : m.content.map((b: any) => b.text ?? b.type).join("|")));
      expect(texts.join("\n")).toContain("first change");
      expect(texts.join("\n")).not.toContain("second change");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "code only leaves the conversation; a refusal to overwrite changes nothing",
    async () => {
      const { term, dir, server } = await start();
      await twoTurns(term);
      writeFileSync(join(dir, "b.txt"), "edited by the user\n");
      await submit(term, "/rewind");
      await answer(term, "Rewind to which message?", "2");
      await answer(term, "Restore (1-3", "2");
      await answer(term, "Overwrite them?", "n");
      await term.waitFor((s) => s.includes("nothing changed") && atPrompt(s));
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("turn two\n");
      expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("edited by the user\n");

      writeFileSync(join(dir, "b.txt"), "new\nfile\n");
      await submit(term, "/rewind");
      await answer(term, "Rewind to which message?", "2", 2);
      await answer(term, "Restore (1-3", "2", 2);
      await term.waitFor((s) => s.includes("Code rewound") && atPrompt(s));
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("original\n");
      expect(existsSync(join(dir, "b.txt"))).toBe(false);
      await submit(term, "third");
      await term.waitFor((s) => s.includes("ok three") && atPrompt(s));
      const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
      expect(sent).toContain("second change");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "conversation only, opened with Esc twice on an empty input: files stay, the conversation forks",
    async () => {
      const { term, dir, server } = await start();
      await twoTurns(term);
      await term.keys("Escape");
      await term.keys("Escape");
      await answer(term, "Rewind to which message?", "1");
      await answer(term, "Restore (1-3", "3");
      await term.waitFor((s) => s.includes("Conversation rewound") && atPrompt(s));
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("turn two\n");
      expect(existsSync(join(dir, "b.txt"))).toBe(true);
      await submit(term, "third");
      await term.waitFor((s) => s.includes("ok three") && atPrompt(s));
      const sent = JSON.stringify(server.requests.at(-1)!.body.messages);
      expect(sent).toContain("first change");
      expect(sent).not.toContain("second change");
    },
    TEST_TIMEOUT_MS,
  );
});
