/**
 * Background work in the interactive session, through a real terminal and real processes:
 * the status line counts running tasks, a finished task's notice becomes a turn once the prompt is
 * idle, `/tasks` lists and stops, and `/exit` with a task running asks first, then leaves nothing.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { until } from "../../support/wait.ts";

afterEach(stopAgent);

const pgrep = (marker: string) => Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().trim();
const ARGS = ["--allowedTools", "Bash"];

describe("background work in the session", () => {
  test(
    "the status line counts running tasks; /tasks lists them; a notice waits while the user types, then becomes a turn",
    async () => {
      const { term, server, dir } = await startAgent(
        [
          reply(toolUse("Bash", { command: "while [ ! -f go ]; do sleep 0.05; done; echo served", run_in_background: true, description: "wait for go" })),
          reply(text("started it")),
          (req) => {
            expect(JSON.stringify(req.body.messages.at(-1))).toContain("typed meanwhile");
            return reply(text("answered the user"));
          },
          (req) => {
            expect(JSON.stringify(req.body.messages.at(-1))).toContain("completed (exit code 0)");
            return reply(text("heard the notice"));
          },
        ],
        { args: ARGS, width: 160, height: 40 },
      );
      await submit(term, "start it");
      await term.waitFor((s) => s.includes("started it") && s.includes("1 background task running · /tasks"));
      await submit(term, "/tasks");
      await term.waitFor(/b[a-z0-9]{8} {2}running {2}\d+s {2}shell: wait for go/);
      // The user starts typing; the task ends meanwhile: its notice waits for the user's turn.
      await term.type("typed meanwhile");
      await term.waitFor("> typed meanwhile");
      writeFileSync(join(dir, "go"), "");
      await term.waitFor((s) => !s.includes("background task running"));
      expect(server.requests.length).toBe(2);
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("heard the notice") && atPrompt(s));
      const screen = await term.screen();
      expect(screen.indexOf("answered the user")).toBeLessThan(screen.indexOf("heard the notice"));
      expect(screen).toMatch(/⎿ background notice for the model: b[a-z0-9]{8}: Background command "wait for go" completed \(exit code 0\)/);
      expect(server.requests.length).toBe(4);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "/tasks stop ends a task; /exit with one running asks, and leaving stops it",
    async () => {
      const marker = `bgrepl${process.pid}`;
      const { term, server } = await startAgent(
        [
          reply(toolUse("Bash", { command: `exec -a ${marker}a sleep 300`, run_in_background: true, description: "first" })),
          reply(toolUse("Bash", { command: `exec -a ${marker}b sleep 300`, run_in_background: true, description: "second" })),
          reply(text("both started")),
        ],
        { args: ARGS, width: 160, height: 40 },
      );
      await submit(term, "start two");
      await term.waitFor((s) => s.includes("both started") && s.includes("2 background tasks running"));
      await until(() => pgrep(`${marker}a`) !== "" && pgrep(`${marker}b`) !== "");
      const id =
        (await term.screen()).match(/ID: (b[a-z0-9]{8})\./)?.[1] ??
        (server.requests[1]!.body.messages.at(-1).content[0].content as string).match(/ID: (b[a-z0-9]{8})\./)![1]!;
      await submit(term, `/tasks stop ${id}`);
      await term.waitFor(`Stopped ${id} (first) and every process it started.`);
      expect(pgrep(`${marker}a`)).toBe("");
      await term.waitFor("1 background task running");
      await submit(term, "/exit");
      await term.waitFor("Stop them and exit? [y/N]");
      expect(await term.screen()).toContain("1 background task is still running:");
      await term.type("n");
      await term.keys("Enter");
      await term.waitFor(atPrompt);
      expect(pgrep(`${marker}b`)).not.toBe("");
      await submit(term, "/exit");
      // The second time it asks (the first question is still on screen).
      await term.waitFor((s) => s.split("Stop them and exit? [y/N]").length === 3);
      await term.type("y");
      await term.keys("Enter");
      expect(await term.waitForExit()).toBe(0);
      expect(pgrep(`${marker}b`)).toBe("");
    },
    TEST_TIMEOUT_MS,
  );
});
