/**
 * Remote MCP servers for tests: the npm everything server in its `streamableHttp` or `sse` mode on
 * a free port (taken from port 0), started as its own process group and killed after the test.
 */
import { npmServerBin, RUNTIME } from "./mcp.ts";

export interface RemotePeer {
  /** The MCP endpoint: `/mcp` for streamableHttp, `/sse` for sse. */
  url: string;
  proc: Bun.Subprocess;
  stop(): void;
}

const running: RemotePeer[] = [];

/** A port that was free a moment ago (the kernel's pick for port 0), its probe listener closed for good. */
export async function freePort(): Promise<number> {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  // Awaited: a probe still listening on 127.0.0.1 would take the connections meant for the server.
  await probe.stop(true);
  return port;
}

/** Starts the everything server in `mode` (on `port`: the same server back after it was killed); resolves once it says it is listening. */
export async function startEverythingHttp(mode: "streamableHttp" | "sse", port?: number): Promise<RemotePeer> {
  port ??= await freePort();
  const proc = Bun.spawn([RUNTIME, npmServerBin("everything"), mode], {
    env: { ...process.env, PORT: String(port) },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
    detached: true,
  });
  const peer: RemotePeer = {
    url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`,
    proc,
    stop: () => {
      try {
        process.kill(-proc.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    },
  };
  running.push(peer);
  // One reader for the whole life of the pipe: breaking out of a for-await would cancel the stream,
  // and the server would die of EPIPE at its next log line.
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  while (!/listening on port|running on port/i.test(seen)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`everything ${mode} did not start: ${seen}`);
    seen += decoder.decode(value, { stream: true });
  }
  void (async () => {
    while (!(await reader.read()).done);
  })().catch(() => {});
  return peer;
}

/** Kills every remote peer started so far (call in afterEach). */
export function stopRemotePeers(): void {
  for (const p of running.splice(0)) p.stop();
}
