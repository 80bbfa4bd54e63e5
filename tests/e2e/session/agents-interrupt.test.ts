/**
 * Esc while a subagent works, in the interactive session through a pseudo-terminal (tests/support/pty-term.ts): the
 * subagent's running command and its own MCP server end, the parent's turn is interrupted, and
 * the session takes the next message.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, isAlive, tempDir } from "../../support/run.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { until } from "../../support/wait.ts";

afterEach(stopAgent);

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");

describe("interrupting a subagent in the session", () => {
  test(
    "Esc ends the subagent's command and its own server; the next message is answered",
    async () => {
      const pids = tempDir("agent-pids-");
      const shellPid = join(pids, "shell.pid");
      const serverPids = join(pids, "server.pids");
      let parent = 0;
      const step: Step = (r) => {
        if (isSub(r)) return reply(toolUse("Bash", { command: `echo $$ > ${shellPid}; exec sleep 300` }));
        return parent++ === 0 ? reply(toolUse("Agent", { description: "work", prompt: "work", subagent_type: "worker" })) : reply(text("back again"));
      };
      const agents = JSON.stringify({
        worker: { description: "d", prompt: "p", tools: ["Bash"], mcpServers: [{ own: { command: BUN, args: [FIXTURE_SERVER, "--pid-file", serverPids] } }] },
      });
      const { term } = await startAgent(
        Array.from({ length: 4 }, () => step),
        { args: ["--allowedTools", "Bash", "--agents", agents], width: 160, height: 40 },
      );
      await submit(term, "start the worker");
      await until(() => existsSync(shellPid) && readFileSync(shellPid, "utf8").trim() !== "", "the subagent's command to start");
      const sleeper = Number(readFileSync(shellPid, "utf8").trim());
      const server = Number(readFileSync(serverPids, "utf8").trim().split("\n")[0]);
      expect(isAlive(sleeper) && isAlive(server)).toBe(true);
      await term.keys("Escape");
      await term.waitFor(atPrompt);
      await until(() => !isAlive(sleeper) && !isAlive(server), "the subagent's command and server to end");
      await submit(term, "are you there?");
      await term.waitFor((s) => s.includes("back again") && atPrompt(s));
    },
    TEST_TIMEOUT_MS,
  );
});
