/**
 * Figures over Streamable HTTP against the npm everything server (`streamableHttp` mode): the
 * sequential `tools/call` rate and one call with a 10 MB result, through our McpClient on our
 * HttpTransport, each beside the official MCP SDK client's StreamableHTTPClientTransport measured
 * in the same run against the same server (the SDK is a bench-only devDependency).
 * The 10 MB result comes from our HTTP fixture server (its `big` tool, SSE replies, in a process of
 * its own), because the everything server refuses request bodies that large (HTTP 413); both
 * clients call the same server in the same run.
 */
import { join } from "node:path";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, perSecond, series, verdict, type Row } from "./measure.ts";
import { startEverythingHttp, stopRemotePeers } from "../tests/support/http-peers.ts";

const RUNS = 5;
const CALLS = 300;
const BIG_BYTES = 10 * 1024 * 1024;
const RATE_FIGURE = "sequential `tools/call` (echo) over Streamable HTTP, everything server";
const BIG_FIGURE = "one `tools/call` with a 10 MB result over Streamable HTTP (SSE reply, fixture server)";

interface Caller {
  echo(message: string): Promise<string>;
  big(bytes: number): Promise<string>;
  close(): Promise<void>;
}

async function ours(url: string): Promise<Caller> {
  const { McpClient } = await import("../lib/mcp/client.ts");
  const { HttpTransport } = await import("../lib/mcp/transports/http.ts");
  const client = new McpClient("bench", new HttpTransport({ url }), { features: {} });
  await client.connect({ timeoutMs: 30_000 });
  return {
    echo: async (message) => {
      const result = await client.callTool("echo", { message }, { timeoutMs: 120_000 });
      return String((result.content?.[0] as { text?: string } | undefined)?.text ?? "");
    },
    big: async (bytes) => {
      const result = await client.callTool("big", { bytes }, { timeoutMs: 120_000 });
      return String((result.content?.[0] as { text?: string } | undefined)?.text ?? "");
    },
    close: () => client.close(),
  };
}

async function sdk(url: string): Promise<Caller> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const client = new Client({ name: "bench-sdk", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    echo: async (message) => {
      const result = await client.callTool({ name: "echo", arguments: { message } }, undefined, { timeout: 120_000 });
      return String((result.content as { text?: string }[] | undefined)?.[0]?.text ?? "");
    },
    big: async (bytes) => {
      const result = await client.callTool({ name: "big", arguments: { bytes } }, undefined, { timeout: 120_000 });
      return String((result.content as { text?: string }[] | undefined)?.[0]?.text ?? "");
    },
    close: () => client.close(),
  };
}

async function sequential(caller: Caller): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await caller.echo("hi");
  return performance.now() - started;
}

async function big(caller: Caller): Promise<number> {
  const started = performance.now();
  const text = await caller.big(BIG_BYTES);
  const elapsed = performance.now() - started;
  if (text.length < BIG_BYTES) throw new Error(`the 10 MB echo came back with ${text.length} characters`);
  return elapsed;
}

/** Our HTTP fixture server in a process of its own, with SSE replies; resolves with its /mcp URL. */
async function startFixture(): Promise<{ url: string; stop: () => void }> {
  const script = join(import.meta.dir, "../fixtures/servers/http-server.ts");
  const proc = Bun.spawn([process.execPath, script, "--sse"], { stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the HTTP fixture server exited before printing its URL");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { url: text.trim(), stop: () => proc.kill() };
}

export async function httpFigure(ctx: BenchContext): Promise<FigureResult> {
  let callers: Caller[] = [];
  let fixture: { url: string; stop: () => void } | undefined;
  try {
    const server = await startEverythingHttp("streamableHttp");
    fixture = await startFixture();
    const [a, b, bigA, bigB] = await Promise.all([ours(server.url), sdk(server.url), ours(fixture.url), sdk(fixture.url)]);
    callers = [a, b, bigA, bigB];
    if ((await a.echo("check")) !== "Echo: check") throw new Error("our echo answered wrongly");
    ctx.log(`http: ${RUNS} runs of ${CALLS} sequential calls and of one 10 MB call, ours and the SDK's`);
    const rate = await series(RUNS, { ours: () => sequential(a), sdk: () => sequential(b) });
    const large = await series(RUNS, { ours: () => big(bigA), sdk: () => big(bigB) });
    const perSec = (samples: number[]) => CALLS / (median(samples) / 1000);
    const oursRate = perSec(rate.ours);
    const sdkRate = perSec(rate.sdk);
    const oursBig = median(large.ours);
    const sdkBig = median(large.sdk);
    const rows: Row[] = [
      {
        figure: RATE_FIGURE,
        value: perSecond(oursRate),
        baseline: `${perSecond(sdkRate)} (SDK StreamableHTTPClientTransport)`,
        ratio: `${(oursRate / sdkRate).toFixed(2)}×`,
        target: "≥ 1.0× the SDK's rate",
        result: verdict(oursRate >= sdkRate),
      },
      {
        figure: BIG_FIGURE,
        value: ms(oursBig),
        baseline: `${ms(sdkBig)} (SDK StreamableHTTPClientTransport)`,
        ratio: `${(sdkBig / oursBig).toFixed(2)}× faster`,
        target: "≥ 2× faster than the SDK",
        result: verdict(sdkBig >= 2 * oursBig),
      },
    ];
    const notes = [
      [
        "### Streamable HTTP against the SDK client",
        "",
        `Both clients talk to one everything server (\`streamableHttp\` mode, SSE replies) in the same run, interleaved; medians of ${RUNS} runs.`,
        `Sequential: ${CALLS} \`echo\` calls per run against the everything server. 10 MB: our fixture server's \`big\` tool (SSE replies, its own process), since the everything server refuses 10 MB request bodies.`,
      ].join("\n"),
    ];
    return { rows, notes };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { rows: [naRow(RATE_FIGURE, "≥ 1.0× the SDK's rate", reason), naRow(BIG_FIGURE, "≥ 2× faster than the SDK", reason)], notes: [] };
  } finally {
    await Promise.all(callers.map((c) => c.close().catch(() => {})));
    stopRemotePeers();
    fixture?.stop();
  }
}
