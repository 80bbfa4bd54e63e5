/**
 * SIGINT while a subagent works, through the real program in -p: the subagent's running command and
 * its own MCP server end with the run, and nothing is left behind.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type RecordedRequest, type Step } from "../../support/model-server.ts";
import { BUN, baseEnv, FIXTURE_SERVER, isAlive, PROGRAM, tempDir } from "../../support/run.ts";

const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");

/** Resolves once `check` holds (a file the child writes), checking as the child works. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1500 && !check(); i++) await Bun.sleep(20);
  if (!check()) throw new Error(`never happened: ${check}`);
}

test("SIGINT mid-subagent ends its command and its own server; no process is left", async () => {
  const cwd = tempDir();
  const shellPid = join(cwd, "shell.pid");
  const serverPids = join(cwd, "server.pids");
  const agents = JSON.stringify({
    worker: { description: "d", prompt: "p", tools: ["Bash"], mcpServers: [{ own: { command: BUN, args: [FIXTURE_SERVER, "--pid-file", serverPids] } }] },
  });
  let parent = 0;
  const step: Step = (r) => {
    if (isSub(r)) return reply(toolUse("Bash", { command: `echo $$ > ${shellPid}; exec sleep 300` }));
    return parent++ === 0 ? reply(toolUse("Agent", { description: "work", prompt: "work", subagent_type: "worker" })) : reply(text("never"));
  };
  const model = startModelServer(Array.from({ length: 5 }, () => step));
  try {
    const proc = Bun.spawn([PROGRAM, "-p", "go", "--agents", agents], {
      cwd,
      env: baseEnv(model.url) as Record<string, string>,
      stdout: "pipe",
      stderr: "pipe",
    });
    await until(() => existsSync(shellPid) && readFileSync(shellPid, "utf8").trim() !== "");
    const sleeper = Number(readFileSync(shellPid, "utf8").trim());
    const server = Number(readFileSync(serverPids, "utf8").trim().split("\n")[0]);
    expect(isAlive(sleeper) && isAlive(server)).toBe(true);
    proc.kill("SIGINT");
    const code = await proc.exited;
    expect(code).not.toBe(0);
    await until(() => !isAlive(sleeper) && !isAlive(server));
    expect(await new Response(proc.stdout).text()).toBe("");
    // The parent never got to its second request.
    expect(model.requests.filter((r) => !isSub(r))).toHaveLength(1);
  } finally {
    model.stop();
  }
}, 60_000);
