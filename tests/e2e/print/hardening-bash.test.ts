/**
 * Agent core hardening, Bash: background jobs, timeouts, stdin and pagers, huge output, and
 * SIGINT/SIGTERM during a command, through the whole agent. Leftover processes are checked by pid
 * once the tool_result is in (isAlive counts the zombies an init that never reaps as dead), or,
 * when the agent itself is signalled, by the end of file of a fifo the process held.
 * (A plain `sleep &`, a timeout's partial output and `-rf`/.github searches are in tools.test.ts.)
 */
import { afterEach, describe, expect, test } from "bun:test";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, isAlive, PROGRAM, tempDir } from "../../support/run.ts";
import { fileAppears, pidIn } from "../../unit/tools/support.ts";
import { runCalls, runTurns, textOf } from "./hardening-support.ts";

/** Slower than bun's 5 s default can be on a loaded machine: timeouts, git set-up, 200 MB. */
const SLOW = { timeout: 20_000 };

/** Git configured by the repository alone, so the machine's own settings (signing, hooks) stay out. */
const hermeticGit = (dir: string) => ({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: join(dir, ".no-global-gitconfig") });

/** Runs `script` with bash in `cwd`; throws with its output when it fails. */
function sh(cwd: string, script: string, env: Record<string, string>): void {
  const r = Bun.spawnSync(["bash", "-euc", script], { cwd, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`setup failed: ${r.stderr.toString()}`);
}

describe("background jobs and timeouts", () => {
  test("a background job that ignores SIGTERM, and its child, do not outlive the call", async () => {
    const dir = tempDir();
    // The fifo holds the foreground part until the job has written its pids.
    const command = "mkfifo ready; (trap '' TERM; sleep 100 & echo $! > child.pid; echo $BASHPID > job.pid; echo > ready; wait) & read < ready; echo launched";
    const [result] = await runCalls(dir, ["Bash", { command }]);
    expect(result).toMatchObject({ content: "launched" });
    for (const file of ["job.pid", "child.pid"]) expect(isAlive(pidIn(join(dir, file)))).toBe(false);
  });

  test(
    "a timeout kills the whole tree, SIGTERM-proof grandchildren included, and keeps the partial output",
    async () => {
      const dir = tempDir();
      const command = "mkfifo ready; (trap '' TERM; sleep 100 & echo $! > grandchild.pid; echo > ready; wait) & read < ready; echo partial; sleep 100";
      const [result] = await runCalls(dir, ["Bash", { command, timeout: 1000 }]);
      expect(result!.is_error).toBe(true);
      expect(textOf(result!)).toMatch(/^partial\nCommand timed out after 1000 ms/);
      expect(isAlive(pidIn(join(dir, "grandchild.pid")))).toBe(false);
    },
    SLOW,
  );
});

describe("no terminal, empty stdin, no pager", () => {
  test("cat, read and /dev/tty return at once instead of waiting for input", async () => {
    const dir = tempDir();
    const [cat, read, tty] = await runCalls(
      dir,
      ["Bash", { command: "cat", timeout: 10_000 }],
      ["Bash", { command: 'read x; echo "read exit $?"', timeout: 10_000 }],
      ["Bash", { command: "cat /dev/tty", timeout: 10_000 }],
    );
    expect(cat).toMatchObject({ content: "(no output)" });
    expect(read).toMatchObject({ content: "read exit 1" });
    expect(tty!.is_error).toBe(true);
    expect(textOf(tty!)).toMatch(/\/dev\/tty.*\nExit code 1$/);
  });

  test(
    "git commit without -m aborts instead of opening an editor; git log pages through cat",
    async () => {
      const dir = tempDir();
      sh(
        dir,
        `git init -q . && git config user.name Tester && git config user.email tester@example.com
       for i in $(seq 1 150); do git commit -q --allow-empty -m "commit $i"; done
       echo staged > staged.txt && git add staged.txt`,
        hermeticGit(dir),
      );
      const { results } = await runTurns(
        dir,
        [
          ["Bash", { command: "git commit", timeout: 10_000 }],
          ["Bash", { command: "git --paginate log --format=%s", timeout: 10_000 }],
          ["Bash", { command: 'echo "$PAGER $GIT_PAGER"; git var GIT_PAGER', timeout: 10_000 }],
        ],
        hermeticGit(dir),
      );
      const [commit, log, pager] = results.map((r) => r[0]!);
      expect(commit!.is_error).toBe(true);
      expect(textOf(commit!)).toContain("Aborting commit due to empty commit message");
      expect(textOf(log!).split("\n")).toEqual(Array.from({ length: 150 }, (_, i) => `commit ${150 - i}`));
      expect(pager).toMatchObject({ content: "cat cat\ncat" });
    },
    SLOW,
  );
});

describe("huge output", () => {
  test(
    "200 MB of output: the result keeps the head and the tail with a note of what was cut",
    async () => {
      const dir = tempDir();
      const [result] = await runCalls(dir, ["Bash", { command: "echo START; yes | head -c 200000000; echo END" }]);
      const content = textOf(result!);
      expect(result!.is_error).toBeUndefined();
      expect(content.length).toBeLessThanOrEqual(30_000);
      expect(content.startsWith("START\ny\ny\n")).toBe(true);
      expect(content.endsWith("y\ny\nEND")).toBe(true);
      const omitted = Number(/\.\.\. \[(\d+) characters of output omitted\] \.\.\./.exec(content)?.[1]);
      // Everything printed is either kept or counted: START\n + 200000000 + END\n.
      expect(omitted + content.replace(/\n\n\.\.\. \[.*\] \.\.\.\n\[Whole output .*\]\n\n/, "").length + 1).toBe(200_000_010);
    },
    SLOW,
  );
});

describe("signals", () => {
  // Cleaned up here rather than in `finally`, which a timed-out test never reaches.
  let leftovers: { agent?: Bun.Subprocess; sleepPid?: number; server?: { stop(): void } } = {};
  afterEach(() => {
    leftovers.agent?.kill("SIGKILL");
    if (leftovers.sleepPid !== undefined && isAlive(leftovers.sleepPid)) process.kill(leftovers.sleepPid, "SIGKILL");
    leftovers.server?.stop();
    leftovers = {};
  });

  test.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)(
    "%s while a `sleep` runs: the agent exits (code %d) and the sleep ends with it",
    async (signal, expected) => {
      const dir = tempDir();
      // The sleep's stdout is a fifo we read: its end of file is the event "the sleep has ended"
      // (a process ends an instant after a SIGKILL is sent, so a pid check right then is a race).
      sh(dir, "mkfifo held", {});
      const command = "sleep 300 > held & echo $! > sleep.tmp; mv sleep.tmp sleep.pid; wait";
      const server = (leftovers.server = startModelServer([reply(toolUse("Bash", { command })), reply(text("never"))]));
      const agent = (leftovers.agent = Bun.spawn([PROGRAM, "-p", "sleep"], {
        cwd: dir,
        env: baseEnv(server.url) as Record<string, string>,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      }));
      const endedEarly = agent.exited.then(async () => {
        throw new Error(`the agent exited before the command started: ${await new Response(agent.stderr).text()}`);
      });
      const held = await Promise.race([open(join(dir, "held"), "r"), endedEarly]);
      const sleepEnded = held.readFile().finally(() => held.close());
      await Promise.race([fileAppears(join(dir, "sleep.pid")), endedEarly]);
      const sleepPid = (leftovers.sleepPid = pidIn(join(dir, "sleep.pid")));
      expect(isAlive(sleepPid)).toBe(true);
      agent.kill(signal);
      expect(await agent.exited).toBe(expected);
      expect(server.requests).toHaveLength(1);
      // If the sleep outlived the agent, this waits out its 300 s and the test fails on its timeout.
      await sleepEnded;
    },
    SLOW,
  );
});
