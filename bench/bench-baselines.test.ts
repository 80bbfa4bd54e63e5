/**
 * The bench's baselines against the real fixture server: they must do the work they claim
 * (a full handshake, real round trips), or the ratios in RESULTS.md mean nothing.
 * Real processes, no timing assertions.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startEverythingHttp, stopRemotePeers } from "../tests/support/http-peers.ts";
import { reply, startModelServer, text, type ModelServer } from "../tests/support/model-server.ts";
import { BUN, FIXTURE_SERVER, baseEnv, fixtureServer, tempDir, writeMcpConfig } from "../tests/support/run.ts";
import { type Caller, makeResource, ours, raw, sdk, serveNoise, sessionResource, startFixture } from "./http-callers.ts";
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

test("the raw HTTP session reads a whole reply: SSE and JSON, as many bytes as the result carries", async () => {
  for (const sse of [true, false]) {
    const fixture = await startFixture(sse);
    try {
      const session = await raw(fixture.url);
      for (const atLeast of [undefined, 1 << 20]) {
        const bytes = await session.request("tools/call", { name: "big", arguments: { bytes: 1 << 20 } }, atLeast);
        expect({ sse, atLeast, enough: bytes > 1 << 20, under: bytes < (1 << 20) + 1000 }).toEqual({ sse, atLeast, enough: true, under: true });
      }
    } finally {
      fixture.stop();
    }
  }
});

test("the everything server's session resource holds the noise as a base64 blob of 4/3 its size, for every caller", async () => {
  const server = await startEverythingHttp("streamableHttp");
  const noise = serveNoise(300_000);
  const callers: Caller[] = [];
  try {
    callers.push(await ours(server.url), await sdk(server.url));
    const uris = await Promise.all(callers.map((c, i) => makeResource(c, `test-${i}.gz`, noise.url)));
    const lengths = await Promise.all(callers.map((c, i) => c.read(uris[i]!)));
    for (const length of lengths) expect(length).toBeGreaterThanOrEqual(400_000);
    const session = await raw(server.url);
    await session.request("tools/call", { name: "gzip-file-as-resource", arguments: { name: "test-raw.gz", data: noise.url, outputType: "resourceLink" } });
    expect(await session.request("resources/read", { uri: sessionResource("test-raw.gz") })).toBeGreaterThan(400_000);
  } finally {
    await Promise.all(callers.map((c) => c.close()));
    noise.stop();
    stopRemotePeers();
  }
});
