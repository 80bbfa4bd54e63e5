/**
 * Bash with real processes: output order, exit codes, stdin, timeouts and interrupts that take
 * the whole process group down, background jobs, and output capping on hundreds of megabytes.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashTool, MAX_OUTPUT_CHARS } from "../../../lib/tools/bash.ts";
import { tempDir } from "../../support/run.ts";
import { ctxFor, errorOf, fileAppears, isRunning, pidIn, textOf } from "./support.ts";

const bash = (dir: string, input: Record<string, unknown>, signal?: AbortSignal) => bashTool.run(input, ctxFor(dir, signal));

describe("Bash: results", () => {
  test("stdout and stderr come back interleaved in order, in cwd", async () => {
    const dir = tempDir();
    const out = await bash(dir, { command: "echo one; echo two >&2; echo three; pwd" });
    expect(out).toEqual({ content: `one\ntwo\nthree\n${dir}` });
  });

  test("a non-zero exit is an error result with the output and the exit code", async () => {
    const dir = tempDir();
    expect(await bash(dir, { command: "echo before; ls missing-file; exit 3" })).toEqual({
      content: expect.stringMatching(/^before\nls: .*missing-file.*\nExit code 3$/),
      isError: true,
    });
  });

  test("a command that changes files really runs", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "doomed.txt"), "x");
    expect(await bash(dir, { command: "rm doomed.txt" })).toEqual({ content: "(no output)" });
    expect(existsSync(join(dir, "doomed.txt"))).toBe(false);
  });

  test("a shell killed by a signal says so", async () => {
    const dir = tempDir();
    expect(await bash(dir, { command: "kill -KILL $$" })).toEqual({ content: "Command killed by SIGKILL", isError: true });
  });

  test("stdin is empty and there is no terminal: cat and read return at once", async () => {
    const dir = tempDir();
    const out = await bash(dir, { command: 'cat; read line; echo "read=$?"; [ -t 0 ] || echo "no tty"' });
    expect(out).toEqual({ content: "read=1\nno tty" });
  });

  test("pagers and editors are disabled through the environment", async () => {
    const dir = tempDir();
    const out = await bash(dir, { command: 'echo "$PAGER $GIT_PAGER $GIT_EDITOR $EDITOR $GIT_TERMINAL_PROMPT"' });
    expect(out).toEqual({ content: "cat cat true true 0" });
  });

  test("bad input and a missing cwd are clear errors", async () => {
    const dir = tempDir();
    expect(await errorOf(bash(dir, { command: "  " }))).toBe("command is empty");
    expect(await errorOf(bash(dir, { command: "true", timeout: 0 }))).toBe('Invalid input: "timeout" must be an integer ≥ 1');
    expect(await errorOf(bash(join(dir, "gone"), { command: "true" }))).toContain(`Cannot run the command in ${join(dir, "gone")}`);
  });
});

describe("Bash: process lifetime", () => {
  test("timeout: partial output, an error naming the timeout, and the grandchild is killed", async () => {
    const dir = tempDir();
    const command = "echo partial; bash -c 'sleep 60 & echo $! > gc.pid; wait'; echo never";
    const out = await bash(dir, { command, timeout: 2000 });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toStartWith("partial\n");
    expect(textOf(out)).toContain("timed out after 2000 ms");
    expect(textOf(out)).not.toContain("never");
    expect(isRunning(pidIn(join(dir, "gc.pid")))).toBe(false);
  }, 20000);

  test("abort via ctx.signal interrupts and kills the whole group", async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const ready = fileAppears(join(dir, "gc.pid"));
    const call = bash(dir, { command: "echo started; bash -c 'sleep 60 & echo $! > tmp.pid; mv tmp.pid gc.pid; wait'" }, controller.signal);
    await ready;
    controller.abort();
    const out = await call;
    expect(out).toEqual({ content: expect.stringMatching(/^started\nCommand interrupted/), isError: true });
    expect(isRunning(pidIn(join(dir, "gc.pid")))).toBe(false);
  }, 20000);

  test("a background job does not hold the call, and is gone afterwards", async () => {
    const dir = tempDir();
    const out = await bash(dir, { command: "sleep 100 & echo $! > bg.pid; echo done" });
    expect(out).toEqual({ content: "done" });
    expect(isRunning(pidIn(join(dir, "bg.pid")))).toBe(false);
  }, 20000);

  test("a double-forked server holding the pipes does not hold the call either", async () => {
    const dir = tempDir();
    const out = await bash(dir, { command: "(sleep 100 & echo $! > srv.pid); echo started" });
    expect(out).toEqual({ content: "started" });
    expect(isRunning(pidIn(join(dir, "srv.pid")))).toBe(false);
  }, 20000);
});

describe("Bash: output cap", () => {
  test("300 MB of output is capped while streaming: head, tail and the omitted count, memory flat", async () => {
    const dir = tempDir();
    const before = process.memoryUsage().rss;
    const out = textOf(await bash(dir, { command: "echo START; yes | head -c 300000000; echo END" }));
    const grown = process.memoryUsage().rss - before;
    expect(out.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
    expect(out).toStartWith("START\ny\ny\n");
    expect(out).toEndWith("y\ny\nEND");
    // Under the marker, a line names the file that holds the whole output (lib/files/spill.ts).
    const match = /\n\n\.\.\. \[(\d+) characters of output omitted\] \.\.\.\n\[Whole output \(300000010 bytes\) saved in [^\]]+\]\n\n/.exec(out)!;
    const [head, tail] = [out.slice(0, match.index), out.slice(match.index + match[0].length)];
    // Every character printed (6 + 300,000,000 + 4) is kept or counted; the final newline is trimmed.
    expect(head.length + Number(match[1]) + tail.length + 1).toBe(300_000_010);
    // Holding the output whole would take at least 300 MB.
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  }, 60000);
});
