/**
 * Nothing outlives the agent (MCP 2025-11-25 basic/lifecycle#stdio: close stdin, then SIGTERM,
 * then SIGKILL, to the whole process group): on a normal end, with servers that ignore EOF and
 * SIGTERM or leave grandchildren, on SIGINT / SIGTERM mid-run, on --max-turns and on an error.
 * Every process a run starts inherits AGENT_TEST_MARKER, so `marked()` finds any that is left;
 * each test also checks that the same search did find the servers while the run was live.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse, type Step } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, fixtureServer, isAlive } from "../../support/run.ts";
import { heldStep, marked, pidsIn, project, stopProjects, survivors, type ProjectBasics } from "../../support/mcp.ts";

afterEach(stopProjects);

const pidFile = (p: ProjectBasics) => join(p.dir, "pids");
const exitLog = (p: ProjectBasics) => join(p.dir, "exit.log");
/** How the fixture saw its end, one event per line (`--exit-log`). */
const ends = (p: ProjectBasics) => readFileSync(exitLog(p), "utf8").trim().split("\n");

/** Processes of the run alive at each model call (recorded while the run is live). */
function watching(live: number[][], ...steps: Step[]) {
  return ({ marker }: ProjectBasics): Step[] =>
    steps.map((step) => () => {
      live.push(marked(marker));
      return step;
    });
}

/** After the agent exited: none of the run's processes, nor the pids the fixture recorded, runs. */
async function nothingLeft(p: ProjectBasics) {
  // One poll over both: a dying process may already hide its environment from `marked` while still running.
  expect(await survivors(() => [...marked(p.marker), ...pidsIn(pidFile(p)).filter(isAlive)])).toEqual([]);
}

describe("a normal end", () => {
  test("a well-behaved server sees its stdin close and exits by itself, before any SIGTERM", async () => {
    const live: number[][] = [];
    const p = project((b) => ({ fx: fixtureServer("--pid-file", pidFile(b), "--exit-log", exitLog(b)) }), watching(live, reply(text("bye"))));
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "bye\n"]);
    expect(live[0]).toEqual(expect.arrayContaining(pidsIn(pidFile(p))));
    expect(ends(p)).toEqual(["stdin EOF"]);
    await nothingLeft(p);
  });

  test("a server ignoring stdin EOF and SIGTERM is killed; the run still ends with its answer", async () => {
    const live: number[][] = [];
    const p = project(
      (b) => ({ stubborn: fixtureServer("--ignore-stdin-eof", "--ignore-sigterm", "--pid-file", pidFile(b), "--exit-log", exitLog(b)) }),
      watching(live, reply(text("bye"))),
    );
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "bye\n"]);
    expect(live[0]).toEqual(expect.arrayContaining(pidsIn(pidFile(p))));
    // It saw both and stayed: only SIGKILL (which it cannot log) ended it.
    expect(ends(p)).toEqual(["stdin EOF", "SIGTERM"]);
    await nothingLeft(p);
  });

  test("a server started through sh -c, leaving a sleep grandchild, leaves nothing", async () => {
    const live: number[][] = [];
    // The shell stays as the parent (it runs `true` after the server), and records its own pid.
    const wrapper = 'echo $$ >> "$1"; "$2" "$3" --grandchild --pid-file "$1"; true';
    const p = project(
      (b) => ({ wrapped: { command: "sh", args: ["-c", wrapper, "sh", pidFile(b), BUN, FIXTURE_SERVER] } }),
      watching(live, reply(text("bye"))),
    );
    const r = await p.run("hi");
    expect([r.code, r.stdout]).toEqual([0, "bye\n"]);
    const pids = pidsIn(pidFile(p));
    expect(pids).toHaveLength(3); // sh, the server, its sleep
    expect(live[0]).toEqual(expect.arrayContaining(pids));
    await nothingLeft(p);
  });
});

describe("signals mid-run", () => {
  test("SIGINT while the model is answering: exit 130, no server left", async () => {
    const held = heldStep();
    const p = project((b) => ({ fx: fixtureServer("--pid-file", pidFile(b)), other: fixtureServer("--grandchild", "--pid-file", pidFile(b)) }), [held.step]);
    const agent = p.spawn("hi");
    try {
      await held.reached;
      const live = marked(p.marker);
      expect(live).toEqual(expect.arrayContaining([agent.pid, ...pidsIn(pidFile(p))]));
      process.kill(agent.pid, "SIGINT");
      const r = await agent.done;
      expect(r.code).toBe(130);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("interrupted (Ctrl-C): the run stopped before it finished");
    } finally {
      held.release(reply(text("too late")));
    }
    await nothingLeft(p);
  });

  test("SIGTERM during a tool call that never returns: exit 143, no server left", async () => {
    const p = project(
      (b) => ({ fx: fixtureServer("--never-answer-tools", "--pid-file", pidFile(b)) }),
      [reply(toolUse("mcp__fx__slow", { ms: 60_000 })), reply(text("never reached"))],
    );
    // --verbose forwards the server's stderr, where it says it got the call.
    const agent = p.spawn("hang", { args: ["--verbose"] });
    await agent.waitForStderr("will never be answered");
    expect(marked(p.marker)).toEqual(expect.arrayContaining([agent.pid, ...pidsIn(pidFile(p))]));
    process.kill(agent.pid, "SIGTERM");
    const r = await agent.done;
    expect(r.code).toBe(143);
    await nothingLeft(p);
  });

  test("after SIGTERM the loop stops: the interrupted call's result is not sent to the model", async () => {
    // A server slow to go (it ignores EOF) keeps the shutdown busy long enough for a next model call to show.
    const p = project({ fx: fixtureServer("--never-answer-tools", "--ignore-stdin-eof") }, [
      reply(toolUse("mcp__fx__slow", { ms: 60_000 })),
      reply(text("never reached")),
    ]);
    const agent = p.spawn("hang", { args: ["--verbose"] });
    await agent.waitForStderr("will never be answered");
    process.kill(agent.pid, "SIGTERM");
    expect((await agent.done).code).toBe(143);
    expect(p.model.requests).toHaveLength(1);
  });
});

describe("failed runs", () => {
  test("--max-turns: exit 1, no server left", async () => {
    const live: number[][] = [];
    const p = project((b) => ({ fx: fixtureServer("--pid-file", pidFile(b)) }), watching(live, reply(toolUse("mcp__fx__echo", { text: "again" }))));
    const r = await p.run("loop", { args: ["--max-turns", "1"] });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("max-turns");
    expect(live[0]).toEqual(expect.arrayContaining(pidsIn(pidFile(p))));
    await nothingLeft(p);
  });

  test("a model error: exit 1, no server left", async () => {
    const live: number[][] = [];
    const p = project(
      (b) => ({ fx: fixtureServer("--pid-file", pidFile(b)), stubborn: fixtureServer("--ignore-stdin-eof", "--ignore-sigterm", "--pid-file", pidFile(b)) }),
      watching(live, { status: 400, error: { type: "invalid_request_error", message: "bad request" } }),
    );
    const r = await p.run("hi");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("API error 400");
    expect(live[0]).toEqual(expect.arrayContaining(pidsIn(pidFile(p))));
    await nothingLeft(p);
  });

  test("an input error before any model call: exit 1, no server left", async () => {
    const p = project((b) => ({ fx: fixtureServer("--grandchild", "--pid-file", pidFile(b)) }), []);
    const r = await p.run("/mcp__fx__greet");
    expect(r.code).toBe(1);
    expect(pidsIn(pidFile(p))).toHaveLength(2);
    await nothingLeft(p);
  });
});
