/**
 * The bench's baselines against the real fixture server: they must do the work they claim
 * (a full handshake, real round trips), or the ratios in RESULTS.md mean nothing.
 * Real processes, no timing assertions.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, type ModelServer } from "../tests/support/model-server.ts";
import { BUN, FIXTURE_SERVER, baseEnv, fixtureServer, tempDir, writeMcpConfig } from "../tests/support/run.ts";
import { rawHandshake } from "./raw-handshake.ts";
import { RawPeer } from "./raw-pingpong.ts";

let model: ModelServer | undefined;
const dirs: string[] = [];
afterEach(() => {
  model?.stop();
  model = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir("bench-test-");
  dirs.push(d);
  return d;
}

test("rawHandshake completes initialize → initialized → tools/list, in that order on the wire", async () => {
  const cwd = dir();
  const log = join(cwd, "wire.log");
  const session = await rawHandshake("s1", { command: BUN, args: [FIXTURE_SERVER, "--log-file", log] }, cwd);
  expect(session.tools).toBeGreaterThan(0);
  session.close();
  const methods = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line).method);
  expect(methods).toEqual(["initialize", "notifications/initialized", "tools/list"]);
});

test("rawHandshake names the server that fails", async () => {
  const cwd = dir();
  const failing = rawHandshake("broken", { command: BUN, args: [FIXTURE_SERVER, "--exit-immediately"] }, cwd);
  await expect(failing).rejects.toThrow('server "broken" closed its output during the handshake');
});

test("the raw-handshake script handshakes every .mcp.json server, then makes one model request", async () => {
  model = startModelServer([reply(text("ok"))]);
  const cwd = dir();
  writeMcpConfig(cwd, { a: fixtureServer(), b: fixtureServer("--init-delay", "20") });
  const proc = Bun.spawn([BUN, join(import.meta.dir, "raw-handshake.ts")], {
    cwd,
    env: baseEnv(model.url) as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  expect(model.requests).toHaveLength(1);
  expect(model.requests[0]!.body.messages).toEqual([{ role: "user", content: "hi" }]);
});

test("RawPeer really round-trips: every tools/call line reaches the server and is answered", async () => {
  const cwd = dir();
  const log = join(cwd, "wire.log");
  const peer = await RawPeer.start([BUN, FIXTURE_SERVER, "--log-file", log], cwd);
  await peer.sequential(5, "seq");
  await peer.concurrent(30, 8, "conc");
  await peer.close();
  const calls = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((m) => m.method === "tools/call");
  expect(calls).toHaveLength(35);
  expect(new Set(calls.map((m) => m.id)).size).toBe(35);
  expect(calls.filter((m) => m.params.arguments.text === "conc")).toHaveLength(30);
});

test("RawPeer fails instead of hanging when the server dies", async () => {
  const peer = await RawPeer.start([BUN, FIXTURE_SERVER, "--crash-after", "2"], dir());
  await expect(peer.sequential(5)).rejects.toThrow("the server closed its output");
  await peer.close();
});
