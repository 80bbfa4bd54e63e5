/**
 * Shift+Enter and suspending through a real terminal (tmux): the kitty keyboard protocol
 * (`CSI 13;2u`) and xterm modifyOtherKeys (`CSI 27;2;13~`) continue the input, as Alt+Enter and
 * `\` Enter do; the session turns those reports on, and off again when it is suspended (Ctrl-Z)
 * and when it exits, so the shell behind it gets plain keys. Ctrl-L clears the screen.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { approveAllProjectServers, PROGRAM, tempDir } from "../../support/run.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";
import { atPrompt, startAgent, stopAgent, TEST_TIMEOUT_MS, terminalEnv } from "../../support/repl.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

const BASH = Bun.which("bash");

/** The user's text of the newest user message of request `n`. */
const lastUserText = (server: ModelServer, n: number) =>
  server.requests[n]!.body.messages.filter(conversational)
    .at(-1)
    .content.map((b: { text?: string }) => b.text ?? "")
    .join("");

let shell: { term: TmuxSession; server: ModelServer } | undefined;

afterEach(async () => {
  await stopAgent();
  await shell?.term.kill();
  shell?.server.stop();
  shell = undefined;
});

describe.skipIf(!TMUX)("Shift+Enter", () => {
  test(
    "the kitty (CSI 13;2u) and modifyOtherKeys (CSI 27;2;13~) reports of Shift+Enter continue the input; one message arrives",
    async () => {
      const { term, server } = await startAgent([reply(text("three lines"))]);
      await term.type("one");
      await term.bytes("\x1b[13;2u");
      await term.type("two");
      await term.bytes("\x1b[27;2;13~");
      await term.type("three");
      await term.waitFor("> one\n  two\n  three");
      // Enter as kitty reports it, without modifiers, sends.
      await term.bytes("\x1b[13u");
      await term.waitFor((s) => s.includes("three lines") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("one\ntwo\nthree");
      expect(server.requests).toHaveLength(1);
    },
    TEST_TIMEOUT_MS,
  );
});

describe.skipIf(!TMUX)("Ctrl-L", () => {
  test(
    "clears the screen and draws the prompt, with what was typed, at the top",
    async () => {
      const { term } = await startAgent([reply(text("an answer above"))]);
      await term.type("hello");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("an answer above") && atPrompt(s));
      await term.type("draft");
      await term.waitFor("> draft");
      await term.keys("C-l");
      const screen = await term.waitFor((s) => s.startsWith("> draft"), undefined, "visible");
      expect(screen).not.toContain("an answer above");
    },
    TEST_TIMEOUT_MS,
  );
});

describe.skipIf(!TMUX || !BASH)("the keyboard reports and the shell behind the session", () => {
  test(
    "a terminal's own Shift+Enter is a new line in the session; after Ctrl-Z and after exit the shell gets the plain key, and fg turns the reports on again",
    async () => {
      const server = startModelServer([reply(text("first answer")), reply(text("second answer"))]);
      const home = tempDir("agent-home-");
      approveAllProjectServers(home);
      // tmux reports Shift+Enter as CSI 13;2u only while the program asked for modifyOtherKeys; otherwise, as tmux 3.3 does, it types the key's name.
      const term = await TmuxSession.start({
        command: [BASH!, "--norc", "--noprofile", "-i"],
        cwd: tempDir(),
        env: { ...terminalEnv(home, server.url), PS1: "shell$ " },
        extendedKeys: true,
      });
      shell = { term, server };
      const atShell = (s: string) => s.trimEnd().endsWith("shell$");
      await term.waitFor(atShell);
      await term.type(PROGRAM);
      await term.keys("Enter");
      await term.waitFor(atPrompt);
      await term.type("one");
      await term.keys("S-Enter");
      await term.type("two");
      await term.waitFor("> one\n  two");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("first answer") && atPrompt(s));
      expect(lastUserText(server, 0)).toBe("one\ntwo");

      await term.keys("C-z");
      await term.waitFor((s) => s.includes("Stopped") && atShell(s));
      await term.keys("S-Enter");
      await term.waitFor((s) => s.trimEnd().endsWith("shell$ S-Enter"));
      await term.keys("C-u");
      await term.type("fg");
      await term.keys("Enter");
      await term.waitFor((s) => atPrompt(s) && s.lastIndexOf(">") > s.lastIndexOf("shell$ fg"));
      await term.type("again");
      await term.keys("S-Enter");
      await term.type("more");
      await term.waitFor("> again\n  more");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("second answer") && atPrompt(s));
      expect(lastUserText(server, 1)).toBe("again\nmore");

      await term.keys("C-d");
      await term.waitFor(atShell);
      await term.keys("S-Enter");
      await term.waitFor((s) => s.trimEnd().endsWith("shell$ S-Enter"));
    },
    TEST_TIMEOUT_MS,
  );
});
