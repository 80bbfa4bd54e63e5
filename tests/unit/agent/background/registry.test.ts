/**
 * The background register with real processes: a shell's output file (0600 in a 0700 folder), its
 * notice on exit, its time limit, TaskStop of its group (nothing left, checked with pgrep), the
 * refusals of ids it never issued, and the cap of a flooding command's file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { MAX_EVENT_CHARS, MAX_MONITOR_NOTICES, TaskRegistry, TaskStopError } from "../../../../lib/agent/background/registry.ts";
import { type Notice, noticeText } from "../../../../lib/agent/background/notice.ts";
import { startMonitor } from "../../../../lib/agent/background/monitor-task.ts";
import { startShell } from "../../../../lib/agent/background/shell-task.ts";
import { tempDir } from "../../../support/run.ts";
import { until } from "../../../support/wait.ts";

const lines: string[] = [];
const registry = new TaskRegistry((line) => lines.push(line));
registry.useSession(tempDir(), crypto.randomUUID());
afterAll(() => registry.stopAll());

/** Processes whose command line holds `marker` (pgrep -f), for "nothing left behind". */
const pgrep = (marker: string) => {
  const r = Bun.spawnSync(["pgrep", "-f", marker]);
  return r.stdout.toString().trim();
};

describe("a background shell", () => {
  test("writes its output file and queues a completed notice with its exit code", async () => {
    const task = registry.startShell({ command: "echo out; echo err >&2", description: "two lines", cwd: tempDir(), timeoutMs: 60_000, toolUseId: "toolu_1" });
    expect(task.id).toMatch(/^b[a-z0-9]{8}$/);
    expect(statSync(task.outputFile).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(task.outputFile)).mode & 0o777).toBe(0o700);
    await registry.changed();
    await until(() => registry.hasNotices());
    const [notice] = registry.takeNotices();
    expect(notice).toMatchObject({ taskId: task.id, toolUseId: "toolu_1", outputFile: task.outputFile, status: "completed", exitCode: 0 });
    expect(notice!.summary).toBe('Background command "two lines" completed (exit code 0)');
    // Claude Code's last line for a command that exited by itself.
    expect(readFileSync(task.outputFile, "utf8")).toBe("out\nerr\n\n[exited with code 0]\n");
    const text = noticeText([notice!]);
    expect(text).toContain(`<task-id>${task.id}</task-id>`);
    expect(text).toContain("<status>completed</status>");
    expect(text).toContain("NOT FROM THE USER");
  });

  test("a failing command's notice says failed and its exit code", async () => {
    const task = registry.startShell({ command: "exit 3", cwd: tempDir(), timeoutMs: 60_000 });
    await until(() => registry.hasNotices());
    const [notice] = registry.takeNotices();
    expect(notice).toMatchObject({ taskId: task.id, status: "failed", exitCode: 3 });
  });

  test("its time limit kills it, group and all, and the notice says killed with a note", async () => {
    const marker = `bgtimelimit${process.pid}`;
    registry.startShell({ command: `sleep 300 & exec -a ${marker} sleep 301`, cwd: tempDir(), timeoutMs: 300 });
    await until(() => registry.hasNotices());
    const [notice] = registry.takeNotices();
    expect(notice!.status).toBe("killed");
    expect(notice!.note).toBeDefined();
    expect(pgrep(marker)).toBe("");
  });

  test("TaskStop ends its whole group, even what ignores SIGTERM, and sends the model no notice", async () => {
    const marker = `bgstopme${process.pid}`;
    const task = registry.startShell({ command: `trap '' TERM; (exec -a ${marker} sleep 300) & sleep 302; wait`, cwd: tempDir(), timeoutMs: 60_000 });
    await until(() => pgrep(marker) !== "");
    const stopped = await registry.stop(task.id);
    expect(stopped.status).toBe("stopped");
    expect(pgrep(marker)).toBe("");
    expect(registry.hasNotices()).toBe(false);
    // Stopping it again: over already.
    await expect(registry.stop(task.id)).rejects.toThrow(/is not running/);
  });

  test("a finished command leaves nothing running in its group", async () => {
    const marker = `bgleftover${process.pid}`;
    registry.startShell({ command: `(exec -a ${marker} sleep 300) & echo started`, cwd: tempDir(), timeoutMs: 60_000 });
    await until(() => registry.hasNotices());
    registry.takeNotices();
    expect(pgrep(marker)).toBe("");
  });

  test("TaskStop refuses ids it never issued and paths, with one line", async () => {
    await expect(registry.stop("bnotours1")).rejects.toThrow("No task found with ID: bnotours1");
    await expect(registry.stop("../../etc/passwd")).rejects.toBeInstanceOf(TaskStopError);
    await expect(registry.stop("/tmp/x.output")).rejects.toThrow(/not a path/);
  });

  test("TaskStop of a process id, a task list's id or a session id stops nothing", async () => {
    const other = Bun.spawn(["sleep", "300"]);
    try {
      for (const id of [String(other.pid), String(process.pid), "1", "-1", "0", "b1a2b3c4d", "00000000-0000-0000-0000-000000000000"]) {
        await expect(registry.stop(id)).rejects.toBeInstanceOf(TaskStopError);
      }
      expect(other.killed).toBe(false);
      expect(other.exitCode).toBeNull();
    } finally {
      other.kill("SIGKILL");
    }
  });

  test("stopAll stops every running task with one line each", async () => {
    const a = registry.startShell({ command: "sleep 300", cwd: tempDir(), timeoutMs: 60_000 });
    await registry.stopAll("test over");
    expect(lines.some((l) => l.startsWith(`stopped background task ${a.id} (sleep 300)`))).toBe(true);
    expect(registry.running()).toEqual([]);
  });
});

test("a flooding command's file is capped, and the cut is said", async () => {
  const file = `${tempDir()}/flood.output`;
  const shell = startShell({ command: "head -c 300000 /dev/zero | tr '\\0' x", cwd: tempDir(), outputFile: file, timeoutMs: 60_000, maxBytes: 1000 });
  const end = await shell.done;
  expect(end.status).toBe("completed");
  const text = readFileSync(file, "utf8");
  expect(text.startsWith("x".repeat(1000))).toBe(true);
  expect(text.slice(1000)).toMatch(/^\n\[output cut: this file keeps the first 1000 bytes; the rest was dropped\]\n\n\[exited with code 0\]\n$/);
});

describe("a Monitor", () => {
  test("its lines become one coalesced notice while it waits, then the stream's end is a notice", async () => {
    const r = new TaskRegistry(() => {});
    r.useSession(tempDir(), crypto.randomUUID());
    const task = startMonitor(r, { command: "echo EV1; echo EV2; echo EV3", description: "count", cwd: tempDir(), timeoutMs: 60_000, toolUseId: "toolu_m" });
    await until(() => r.running().length === 0);
    const notices = r.takeNotices();
    expect(notices.map((n) => [n.summary, n.event ?? n.status])).toEqual([
      ['Monitor event: "count"', "EV1\nEV2\nEV3"],
      ['Monitor "count" stream ended', "completed"],
    ]);
    expect(readFileSync(task.outputFile, "utf8")).toBe("EV1\nEV2\nEV3\n\n[exited with code 0]\n");
  });

  test("a flood is cut (said in the notice), and past its notice cap the monitor is stopped, saying why", async () => {
    const r = new TaskRegistry(() => {});
    r.useSession(tempDir(), crypto.randomUUID());
    const task = startMonitor(r, { command: "yes flood", description: "flood", cwd: tempDir(), timeoutMs: 600_000 });
    const seen: Notice[] = [];
    // The model taking each notice as it comes, as the turns would.
    while (r.running().length) {
      await r.changed();
      seen.push(...r.takeNotices());
    }
    seen.push(...r.takeNotices());
    const events = seen.filter((n) => n.event !== undefined);
    expect(events.length).toBeLessThanOrEqual(MAX_MONITOR_NOTICES);
    expect(events.every((n) => n.event!.length <= MAX_EVENT_CHARS)).toBe(true);
    expect(events.some((n) => (n.dropped ?? 0) > 0 && noticeText([n]).includes("were dropped"))).toBe(true);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ taskId: task.id, status: "killed" });
    expect(last.summary).toContain(`more than ${MAX_MONITOR_NOTICES} notices`);
  });
});
