/**
 * -p with background work, through the real program and real processes: a background command
 * started, waited for (one stderr line), its notice turned into a further model turn; an HTTP
 * server started, reached and stopped with TaskStop; --max-turns counting notice turns; json one
 * result and stream-json one per turn; a time limit; SIGTERM while waiting stopping everything.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, type ModelServer, type RecordedRequest, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, runAgent, tempDir } from "../../support/run.ts";
import { until } from "../../support/wait.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const BG = { AGENT_BACKGROUND_TASKS: "1" };
const pgrep = (marker: string) => Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().trim();

test("a background command: the run waits, says for what, and its notice is a further turn", async () => {
  const dir = tempDir();
  // The command ends only once the test lets it: after the first turn has ended, so the run must wait.
  server = startModelServer([
    reply(toolUse("Bash", { command: "while [ ! -f go ]; do sleep 0.05; done; echo bg-finished", run_in_background: true, description: "wait for go" })),
    reply(text("started it")),
    (req) => {
      expect(lastUserText(req)).toContain("<task-notification>");
      return reply(text("all done"));
    },
  ]);
  const run = runAgent(["-p", "go"], { cwd: dir, model: server.url, env: BG });
  await until(() => server!.requests.length >= 2);
  writeFileSync(join(dir, "go"), "");
  const r = await run;
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("all done\n");
  expect(r.stderr).toMatch(/^waiting for 1 background task to end \(b[a-z0-9]{8}: wait for go\), at most \d+ s\n$/);
  const first = server.requests[0]!.body;
  const bash = first.tools.find((t: { name: string }) => t.name === "Bash");
  expect(Object.keys(bash.input_schema.properties)).toEqual(["command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"]);
  expect(first.tools.map((t: { name: string }) => t.name)).toContain("TaskStop");
  const started = lastUserText(server.requests[1]!);
  const [, id, file] = started.match(/ID: (b[a-z0-9]{8})\. .*written to: (\S+) /)!;
  const notice = lastUserText(server.requests[2]!);
  expect(notice).toContain(`<task-id>${id}</task-id>`);
  expect(notice).toContain(`<output-file>${file}</output-file>`);
  expect(notice).toContain("<status>completed</status>");
  expect(notice).toContain('<summary>Background command "wait for go" completed (exit code 0)</summary>');
  expect(await Bun.file(file!).text()).toBe("bg-finished\n\n[exited with code 0]\n");
});

test("an HTTP server in the background: reached, then stopped by TaskStop, with nothing left and no wait", async () => {
  const dir = tempDir();
  const marker = `bghttp${process.pid}`;
  writeFileSync(join(dir, "serve.ts"), 'const s = Bun.serve({ port: 0, fetch: () => new Response("hello from bg") }); console.log(`port ${s.port}`);\n');
  let answer = "";
  server = startModelServer([
    reply(toolUse("Bash", { command: `exec -a ${marker} ${process.execPath} serve.ts`, run_in_background: true })),
    async (req) => {
      const [, id, file] = lastUserText(req).match(/ID: (b[a-z0-9]{8})\. .*written to: (\S+) /)!;
      const port = await until(async () => (await Bun.file(file!).text()).match(/port (\d+)/)?.[1]);
      answer = await (await fetch(`http://127.0.0.1:${port}/`)).text();
      return reply(toolUse("TaskStop", { task_id: id }));
    },
    (req) => {
      expect(lastUserText(req)).toContain('"task_type":"local_bash"');
      return reply(toolUse("TaskStop", { task_id: "../../etc/passwd" }));
    },
    (req) => {
      expect(lastUserText(req)).toContain("is not a task id");
      return reply(text("served and stopped"));
    },
  ]);
  const r = await runAgent(["-p", "serve"], { cwd: dir, model: server.url, env: BG });
  expect(answer).toBe("hello from bg");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("served and stopped\n");
  // Stopped by the model: no notice, no wait.
  expect(r.stderr).toBe("");
  expect(server.requests.length).toBe(4);
  expect(pgrep(marker)).toBe("");
});

test("--max-turns counts notice turns; json is one result for the whole run", async () => {
  server = startModelServer([reply(toolUse("Bash", { command: "echo x", run_in_background: true })), reply(text("first answer")), reply(text("never"))]);
  const r = await runAgent(["-p", "go", "--max-turns", "2", "--output-format", "json"], { cwd: tempDir(), model: server.url, env: BG });
  expect(r.code).toBe(1);
  const lines = r.stdout.trim().split("\n");
  expect(lines.length).toBe(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: "result", subtype: "error_max_turns", num_turns: 2 });
  expect(r.stderr).toContain("error: reached --max-turns 2");
  expect(server.requests.length).toBe(2);
});

test("stream-json: one result per turn; a time limit's stop is a notice turn", async () => {
  server = startModelServer([
    reply(toolUse("Bash", { command: "sleep 300", run_in_background: true, timeout: 300 })),
    reply(text("waiting")),
    (req) => {
      expect(lastUserText(req)).toContain("<status>killed</status>");
      return reply(text("it was stopped"));
    },
  ]);
  const r = await runAgent(["-p", "go", "--output-format", "stream-json", "--verbose"], { cwd: tempDir(), model: server.url, env: BG });
  expect(r.code).toBe(0);
  const results = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === "result");
  expect(results.map((e) => e.result)).toEqual(["waiting", "it was stopped"]);
  // The notice turn's result says so, as Claude Code's does.
  expect(results.map((e) => e.origin?.kind)).toEqual([undefined, "task-notification"]);
  const tasks = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === "system" && e.subtype.startsWith("task_"));
  expect(tasks.map((e) => [e.subtype, e.status ?? e.patch?.status ?? e.task_type])).toEqual([
    ["task_started", "local_bash"],
    ["task_updated", "killed"],
    ["task_notification", "stopped"],
  ]);
});

for (const [signal, code] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
] as const) {
  test(`${signal} while waiting stops the tasks and exits ${code}`, async () => {
    const dir = tempDir();
    const marker = `bg${signal}${process.pid}`;
    server = startModelServer([reply(toolUse("Bash", { command: `exec -a ${marker} sleep 300`, run_in_background: true })), reply(text("left it running"))]);
    const env = { ...baseEnv(server.url), ...BG };
    const proc = Bun.spawn([PROGRAM, "-p", "go"], { cwd: dir, env: env as Record<string, string>, stdout: "pipe", stderr: "pipe" });
    let stderr = "";
    const reading = (async () => {
      for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
    })();
    await until(() => stderr.includes("waiting for 1 background task"));
    expect(pgrep(marker)).not.toBe("");
    proc.kill(signal);
    expect(await proc.exited).toBe(code);
    await reading;
    const lines = stderr.trimEnd().split("\n").slice(1);
    // SIGINT names what it interrupted (lifecycle.ts's line); each task stopped is one line.
    if (signal === "SIGINT")
      expect(lines.shift()).toMatch(
        /^interrupted \(Ctrl-C\): the run stopped before it finished, during the run \(-p\), waiting for background task b[a-z0-9]{8}$/,
      );
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^stopped background task b[a-z0-9]{8} \\(exec -a ${marker} sleep 300\\): the run is ending$`))]);
    expect(pgrep(marker)).toBe("");
    expect(await new Response(proc.stdout).text()).toBe("");
    expect(existsSync(dir)).toBe(true);
  });
}

test("Monitor: its lines reach the model as notices, then the stream's end; a Bash deny rule denies it as it would the command", async () => {
  const dir = tempDir();
  server = startModelServer([
    reply(toolUse("Monitor", { command: "echo READY; echo DONE", description: "watch it", timeout_ms: 60_000 })),
    reply(text("watching")),
  ]);
  const r = await runAgent(["-p", "watch"], { cwd: dir, model: server.url, env: BG });
  expect(r.code).toBe(0);
  const notices = server.requests.slice(2).map(lastUserText).join("\n");
  expect(notices).toMatch(/<summary>Monitor event: "watch it"<\/summary>\n<event>READY(\nDONE)?<\/event>/);
  expect(notices).toContain('<summary>Monitor "watch it" stream ended</summary>');
  expect(lastUserText(server.requests[1]!)).toMatch(/^Monitor started \(task b[a-z0-9]{8};/);

  mkdirSync(join(dir, ".claude"));
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(echo:*)"] } }));
  server.stop();
  server = startModelServer([reply(toolUse("Monitor", { command: "echo hi", description: "denied", timeout_ms: 60_000 })), reply(text("refused"))]);
  const denied = await runAgent(["-p", "watch"], { cwd: dir, model: server.url, env: BG });
  expect(denied.code).toBe(0);
  expect(denied.stdout).toBe("refused\n");
  const result = server.requests[1]!.body.messages.at(-1).content[0];
  expect(result.is_error).toBe(true);
  expect(result.content).toContain("Permission to use Bash with command echo hi has been denied");
  expect(server.requests.length).toBe(2);
});

test("Agent with run_in_background: launched at once, its report comes as a notice turn", async () => {
  const isSub = (req: RecordedRequest) => JSON.stringify(req.body.system ?? "").includes("You were started by another agent");
  const route = (req: RecordedRequest) =>
    isSub(req) ? reply(text("SUB_REPORT")) : lastUserText(req).includes("<task-notification>") ? reply(text("got the report")) : reply(text("launched it"));
  server = startModelServer([reply(toolUse("Agent", { description: "bg check", prompt: "P-bg", run_in_background: true })), route, route, route]);
  const r = await runAgent(["-p", "delegate"], { cwd: tempDir(), model: server.url, env: { ...BG, AGENT_SUBAGENTS: "1" } });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("got the report\n");
  const main = server.requests.filter((q) => !isSub(q));
  const launched = lastUserText(main[1]!);
  const [, id, file] = launched.match(/agentId: (a[0-9a-f]{16})\n[\s\S]*output_file: (\S+)/)!;
  const notice = lastUserText(main[2]!);
  expect(notice).toContain(`<task-id>${id}</task-id>`);
  expect(notice).toContain('<summary>Agent "bg check" finished</summary>');
  expect(notice).toMatch(/<result>[\s\S]* {2}SUB_REPORT[\s\S]*<\/result>/);
  expect(await Bun.file(file!).text()).toContain("  SUB_REPORT");
  // Background work is the main conversation's: the subagent gets Bash's first form, no TaskStop, no Monitor.
  const subTools = server.requests.find(isSub)!.body.tools as { name: string; input_schema: { properties: object } }[];
  expect(subTools.map((t) => t.name)).not.toContain("TaskStop");
  expect(subTools.map((t) => t.name)).not.toContain("Monitor");
  expect(Object.keys(subTools.find((t) => t.name === "Bash")!.input_schema.properties)).not.toContain("run_in_background");
});

test("the first request: Bash's second form and TaskStop, Monitor only when asked; --disallowedTools TaskStop keeps Bash's first form", async () => {
  const tools = async (env: Record<string, string>, flags: string[] = []) => {
    server?.stop();
    server = startModelServer([reply(text("ok"))]);
    const r = await runAgent(["-p", "hi", ...flags], { cwd: tempDir(), model: server.url, env });
    expect(r.code).toBe(0);
    return (server.requests[0]!.body.tools as { name: string; input_schema: { properties: object } }[]).map((t) =>
      t.name === "Bash" ? `Bash(${Object.keys(t.input_schema.properties).join(",")})` : t.name,
    );
  };
  const plain = "Bash(command,timeout,description,dangerouslyDisableSandbox)";
  const background = "Bash(command,timeout,description,run_in_background,dangerouslyDisableSandbox)";
  expect(await tools({})).toEqual(["Read", "Write", "Edit", plain, "Glob", "Grep"]);
  expect(await tools(BG)).toEqual(["Read", "Write", "Edit", background, "Glob", "Grep", "TaskStop", "Monitor"]);
  expect(await tools({}, ["--allowedTools", "Monitor"])).toEqual(["Read", "Write", "Edit", background, "Glob", "Grep", "TaskStop", "Monitor"]);
  expect(await tools(BG, ["--disallowedTools", "TaskStop"])).toEqual(["Read", "Write", "Edit", plain, "Glob", "Grep", "Monitor"]);
});
