/**
 * Load, through the built binary: 50 servers at start-up; 2 000 tool calls across 10 servers in
 * one `-p` run; a 500-turn session driven through host mode (stream-json). Every call answered,
 * every process reaped, and the agent's peak memory bounded (recorded for bench/RESULTS.md with
 * FAULT_REPORT; the bound asserted here only catches a leak, the figure is measured there).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Block, reply, startModelServer, text, toolUse } from "../support/model-server.ts";
import { reportLoad } from "../support/fault-report.ts";
import { BUN, baseEnv, isAlive, PROGRAM, ROOT, tempDir, writeMcpConfig } from "../support/run.ts";
import { survivors } from "../support/mcp.ts";

const FAULT_SERVER = join(ROOT, "fixtures/servers/fault-server.ts");
/** A leak's bound, not a target: the measured figures are in bench/RESULTS.md. */
const RSS_BOUND_MB = 600;

/** Runs the agent to its end with `stdin`; resolves with its output, exit code, peak RSS (MB) and time (ms). */
async function measured(args: string[], cwd: string, model: string, stdin?: string) {
  const started = performance.now();
  const proc = Bun.spawn([PROGRAM, ...args], {
    cwd,
    env: baseEnv(model) as Record<string, string>,
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  // The agent's own high-water mark, read while it runs: a finished process's rusage may report the
  // largest child this test runner ever waited for (a release build in another file), not the agent.
  let peak = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(
        await Bun.file(`/proc/${proc.pid}/status`)
          .text()
          .catch(() => ""),
      );
      if (hwm) peak = Math.max(peak, Number(hwm[1]) * 1024);
      await Bun.sleep(20);
    }
  })();
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  running = false;
  await sampling;
  return { stdout, stderr, code, peakRssMb: Math.round(peak / 1e5) / 10, ms: Math.round(performance.now() - started) };
}

/** `servers` fault-free fault servers (tools echo and boom), their pids written to one file. */
function servers(dir: string, count: number): string {
  const pids = join(dir, "pids");
  const entries = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { command: BUN, args: [FAULT_SERVER, "none", pids] }]));
  writeMcpConfig(dir, entries);
  return pids;
}

async function orphansOf(pids: string): Promise<number> {
  const all = existsSync(pids) ? readFileSync(pids, "utf8").trim().split("\n").map(Number) : [];
  return (await survivors(() => all.filter(isAlive))).length;
}

describe("load", () => {
  test("50 servers at start-up: all connect before the first model call, all offered, all reaped", async () => {
    const dir = tempDir();
    const pids = servers(dir, 50);
    const model = startModelServer([reply(text("done"))]);
    try {
      const r = await measured(["-p", "go"], dir, model.url);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      const offered = JSON.stringify(model.requests[0]!.body);
      for (let i = 0; i < 50; i++) expect(offered).toContain(`mcp__s${i}__echo`);
      const orphans = await orphansOf(pids);
      expect(orphans).toBe(0);
      expect(r.peakRssMb).toBeGreaterThan(10);
      expect(r.peakRssMb).toBeLessThan(RSS_BOUND_MB);
      reportLoad({ run: "50 servers at start-up", peakRssMb: r.peakRssMb, orphans, ms: r.ms });
    } finally {
      model.stop();
    }
  }, 60_000);

  test("2 000 tool calls across 10 servers in one run: every one answered", async () => {
    const dir = tempDir();
    const pids = servers(dir, 10);
    const TURNS = 200;
    const turns = Array.from({ length: TURNS }, (_, t) =>
      reply(...Array.from({ length: 10 }, (_, s): Block => toolUse(`mcp__s${s}__echo`, { text: `t${t} s${s}` }))),
    );
    const model = startModelServer([...turns, reply(text("done"))]);
    try {
      const r = await measured(["-p", "go", "--max-turns", String(TURNS + 5)], dir, model.url);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      // Each request after the first carries the previous turn's ten results, each its own text.
      for (let t = 1; t <= TURNS; t++) {
        const results = model.requests[t]!.body.messages.at(-1).content;
        expect(results.map((b: { content: string }) => b.content)).toEqual(Array.from({ length: 10 }, (_, s) => `t${t - 1} s${s}`));
      }
      const orphans = await orphansOf(pids);
      expect(orphans).toBe(0);
      expect(r.peakRssMb).toBeGreaterThan(10);
      expect(r.peakRssMb).toBeLessThan(RSS_BOUND_MB);
      reportLoad({ run: "2 000 tool calls, 10 servers", peakRssMb: r.peakRssMb, orphans, ms: r.ms });
    } finally {
      model.stop();
    }
  }, 60_000);

  test("a 500-turn host-mode session: 500 results, in order", async () => {
    const dir = tempDir();
    const TURNS = 500;
    const model = startModelServer(Array.from({ length: TURNS }, (_, t) => reply(text(`answer ${t}`))));
    const user = (t: number) => JSON.stringify({ type: "user", message: { role: "user", content: `question ${t}` }, parent_tool_use_id: null });
    try {
      const stdin = `${Array.from({ length: TURNS }, (_, t) => user(t)).join("\n")}\n`;
      const r = await measured(["--output-format", "stream-json", "--input-format", "stream-json", "--verbose"], dir, model.url, stdin);
      expect([r.code, r.stderr]).toEqual([0, ""]);
      const results = r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((m) => m.type === "result");
      expect(results.map((m) => m.result)).toEqual(Array.from({ length: TURNS }, (_, t) => `answer ${t}`));
      expect(r.peakRssMb).toBeGreaterThan(10);
      expect(r.peakRssMb).toBeLessThan(RSS_BOUND_MB);
      reportLoad({ run: "500-turn host-mode session", peakRssMb: r.peakRssMb, orphans: 0, ms: r.ms });
    } finally {
      model.stop();
    }
  }, 60_000);
});
