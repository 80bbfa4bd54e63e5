/**
 * The Agent SDK's interrupt() while a subagent works, through the real SDK driving our executable:
 * the subagent's running command and its own MCP server end, the turn ends as interrupted, and no
 * process is left. Slow (real processes): SKIP_SLOW=1 skips it locally, never in CI.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, type ModelServer, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { BUN, baseEnv, FIXTURE_SERVER, isAlive, PROGRAM, tempDir } from "../../support/run.ts";
import { until } from "../../support/wait.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");

let server: ModelServer | undefined;
afterEach(() => server?.stop());

test.skipIf(SKIP)(
  "interrupt() mid-subagent ends its command and its own server; the turn ends interrupted",
  async () => {
    const pids = tempDir("agent-pids-");
    const shellPid = join(pids, "shell.pid");
    const serverPids = join(pids, "server.pids");
    let parent = 0;
    const step: Step = (r) => {
      if (isSub(r)) return reply(toolUse("Bash", { command: `echo $$ > ${shellPid}; exec sleep 300` }));
      return parent++ === 0 ? reply(toolUse("Agent", { description: "work", prompt: "work", subagent_type: "worker" })) : reply(text("never"));
    };
    server = startModelServer(Array.from({ length: 4 }, () => step));
    const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
    const q = query({
      prompt: "start the worker",
      options: {
        pathToClaudeCodeExecutable: PROGRAM,
        cwd: tempDir(),
        env,
        allowedTools: ["Bash"],
        agents: {
          worker: {
            description: "d",
            prompt: "p",
            tools: ["Bash"],
            mcpServers: [{ own: { command: BUN, args: [FIXTURE_SERVER, "--pid-file", serverPids] } }],
          } as never,
        },
      },
    });
    let sleeper = 0;
    let own = 0;
    const watch = until(() => existsSync(shellPid) && readFileSync(shellPid, "utf8").trim() !== "", "the subagent's command to start").then(async () => {
      sleeper = Number(readFileSync(shellPid, "utf8").trim());
      own = Number(readFileSync(serverPids, "utf8").trim().split("\n")[0]);
      expect(isAlive(sleeper) && isAlive(own)).toBe(true);
      await q.interrupt();
    });
    const results: any[] = [];
    for await (const m of q) if (m.type === "result") results.push(m);
    await watch;
    expect(results[0]).toMatchObject({ subtype: "error_during_execution", is_error: true });
    await until(() => !isAlive(sleeper) && !isAlive(own), "the subagent's command and server to end");
    expect(server.requests.filter((r) => !isSub(r))).toHaveLength(1);
  },
  60_000,
);
