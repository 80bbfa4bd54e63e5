/**
 * The OS sandbox in the interactive session, through the real program in tmux: a sandboxed
 * command's request for an unlisted domain is a question (yes lets it through, for the session),
 * and /status says whether Bash runs in the sandbox.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { sandboxRuns } from "../../support/sandbox.ts";
import { TMUX } from "../../support/tmux.ts";

afterEach(stopAgent);
const page = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("PAGE-FROM-HOST") });
afterAll(() => page.stop(true));
const runs = Boolean(TMUX) && sandboxRuns("the session's sandbox tests");

describe.skipIf(!runs)("the sandbox in the session", () => {
  test(
    "an unlisted domain is asked about; yes lets curl through; /status says the sandbox is on",
    async () => {
      const { term, server } = await startAgent(
        [reply(toolUse("Bash", { command: `curl -sS -m 30 http://localhost:${page.port}/` })), reply(text("fetched it"))],
        {
          args: ["--dangerously-skip-permissions"],
          setup: (dir) => {
            mkdirSync(join(dir, ".claude"));
            writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
          },
        },
      );
      await submit(term, "fetch the page");
      await term.waitFor("Allow a sandboxed command to reach localhost?");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("fetched it") && atPrompt(s));
      expect(JSON.stringify(server.requests[1]!.body.messages.at(-1).content)).toContain("PAGE-FROM-HOST");
      await submit(term, "/status");
      await term.waitFor("sandbox: on (bubblewrap)");
    },
    TEST_TIMEOUT_MS,
  );
});
