/**
 * SIGKILL of the agent at random points of a session (a seed, printed, picks them: FAULT_SEED=<n>
 * replays a failure): mid-run between model requests and tool calls, and during `mcp add`. After
 * each kill every file it writes is still valid (the transcript reads back, at most its last line
 * cut short; `~/.claude.json` parses), `--continue` resumes the conversation, its servers are gone
 * (stdin EOF), and `mcp add` still lands.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readTranscript } from "../../../lib/agent/sessions/transcript.ts";
import { sessionsDir } from "../../../lib/agent/sessions/sessions.ts";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, fixtureServer, isAlive, PROGRAM, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { prng } from "../../support/prng.ts";
import { survivors } from "../../support/mcp.ts";

const SEED = Number(process.env.FAULT_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`faults-sigkill: FAULT_SEED=${SEED}`);
const ROUNDS = 4;
const CALLS = 12;

/** Resolves once every pid is gone, or at the deadline (then the test's check fails, naming them). */
async function reaped(pids: number[]): Promise<number[]> {
  return survivors(() => pids.filter(isAlive));
}

describe(`SIGKILL at random points (FAULT_SEED=${SEED})`, () => {
  test("mid-session: files valid, --continue resumes, no server left, mcp add lands", async () => {
    const rand = prng(SEED);
    const home = tempDir("agent-home-");
    const config = join(home, ".claude");
    const dir = tempDir();
    const pids = join(dir, "pids");
    writeMcpConfig(dir, { fx: fixtureServer("--pid-file", pids) });
    const env = { ...baseEnv(), HOME: home, CLAUDE_CONFIG_DIR: config };
    for (let round = 1; round <= ROUNDS; round++) {
      // Killed when the model gets request `at`, after `delay` ms: between a tool call and the next turn, or during either.
      const at = 1 + rand.int(CALLS);
      const delay = rand.int(40);
      let proc!: ReturnType<typeof Bun.spawn>;
      const steps = Array.from({ length: CALLS }, (_, i) => () => {
        if (i + 1 === at) setTimeout(() => proc.kill("SIGKILL"), delay);
        return reply(text(`turn ${round}.${i}`), toolUse("mcp__fx__echo", { text: `r${round} c${i}` }));
      });
      const model = startModelServer([...steps, reply(text("finished"))]);
      const args = round === 1 ? ["-p", `round ${round}`] : ["--continue", "-p", `round ${round}`];
      proc = Bun.spawn([PROGRAM, ...args], {
        cwd: dir,
        env: { ...env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: "test-key" },
        stdout: "ignore",
        stderr: "ignore",
      });
      await proc.exited;
      model.stop();
      // A server loses its stdin with us and exits: none outlives a killed agent.
      const started = existsSync(pids) ? readFileSync(pids, "utf8").trim().split("\n").map(Number) : [];
      expect(await reaped(started)).toEqual([]);
      // Every transcript reads back; only a last line may be cut short.
      const folder = sessionsDir(config, dir);
      for (const file of readdirSync(folder).filter((f) => f.endsWith(".jsonl"))) {
        const warnings: string[] = [];
        const t = readTranscript(join(folder, file), (w) => warnings.push(w));
        expect(t.header.type).toBe("session");
        for (const w of warnings) expect(w).toContain("is incomplete (the session was cut short while writing it)");
      }
    }
    // The conversation goes on where it was cut, and the files it writes still take changes.
    const model = startModelServer([reply(text("resumed"))]);
    const resumed = await runAgent(["--continue", "-p", "after the kills"], { cwd: dir, model: model.url, env: { HOME: home, CLAUDE_CONFIG_DIR: config } });
    expect([resumed.code, resumed.stdout]).toEqual([0, "resumed\n"]);
    const first = model.requests[0]!.body.messages[0];
    expect(JSON.stringify(first.content)).toContain("round 1");
    model.stop();
    const add = await runAgent(["mcp", "add", "--scope", "user", "late", "--", "srv"], { cwd: dir, env: { HOME: home, CLAUDE_CONFIG_DIR: config } });
    expect(add).toMatchObject({ code: 0, stderr: "" });
  }, 60_000);

  test("during mcp add: ~/.claude.json stays valid JSON with every entry that was reported added", async () => {
    const rand = prng(SEED + 1);
    const home = tempDir("agent-home-");
    const dir = tempDir();
    const file = join(home, ".claude.json");
    const env: Record<string, string | undefined> = { ...baseEnv(), HOME: home, CLAUDE_CONFIG_DIR: undefined };
    const landed: string[] = [];
    for (let round = 0; round < 8; round++) {
      const name = `s${round}`;
      const proc = Bun.spawn([PROGRAM, "mcp", "add", "--scope", "user", name, "--", "srv"], {
        cwd: dir,
        env: env as Record<string, string>,
        stdout: "pipe",
        stderr: "ignore",
      });
      const timer = setTimeout(() => proc.kill("SIGKILL"), rand.int(150));
      const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      clearTimeout(timer);
      if (code === 0 && out.startsWith("Added")) landed.push(name);
      if (existsSync(file)) {
        const servers = Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers ?? {});
        for (const n of landed) expect(servers).toContain(n);
      }
    }
  }, 60_000);
});
