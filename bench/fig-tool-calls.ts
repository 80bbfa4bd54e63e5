/**
 * Figures: `tools/call` round trips per second against the fixture server's `echo` tool, in
 * process. Measured through the registry's `Tool.run` (what the agent loop calls: JSON-RPC
 * connection, framing, content conversion) and, for the notes, through `McpClient.callTool`.
 * Baseline: bench/raw-pingpong.ts against the same server program over the same kind of pipes.
 */
import { rmSync } from "node:fs";
import type { McpClient } from "../lib/mcp/session/client.ts";
import type { McpRegistry } from "../lib/mcp/registry/registry.ts";
import type { Tool, ToolContext } from "../lib/tools/tool.ts";
import { BUN, FIXTURE_SERVER, tempDir } from "../tests/support/run.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, naRow, perSecond, series, verdict, type Row } from "./measure.ts";
import { RawPeer } from "./raw-pingpong.ts";

const RUNS = 5;
const SEQUENTIAL_CALLS = 5000;
const CONCURRENT_CALLS = 10_000;
const IN_FLIGHT = 100;
const SEQ_FIGURE = "sequential `tools/call` (echo), via McpRegistry tool.run";
const SEQ_TARGET = "≥ 60 % of raw rate";
const CONC_FIGURE = `concurrent \`tools/call\` (echo), ${IN_FLIGHT} in flight, via McpRegistry tool.run`;

/** Runs `count` calls of `call`, at most `inFlight` at a time; resolves with the elapsed ms. */
async function pool(count: number, inFlight: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next++ < count) await call();
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return performance.now() - started;
}

const rate = (count: number, elapsedMs: number) => count / (elapsedMs / 1000);

/**
 * Wraps a measurement of `count` calls so it also records this process's CPU time per call (µs,
 * user + system) into `cpu`: unlike the rate, it hardly moves when other processes compete for
 * the cores, so it shows the client's own cost. The first (warm-up) entry is dropped later.
 */
function withCpu(cpu: number[], count: number, measure: () => Promise<number>): () => Promise<number> {
  return async () => {
    const before = process.cpuUsage();
    const elapsed = await measure();
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / count);
    return elapsed;
  };
}

export async function toolCallsFigure(ctx: BenchContext): Promise<FigureResult> {
  const cwd = tempDir("agent-bench-calls-");
  const server = { type: "stdio" as const, command: BUN, args: [FIXTURE_SERVER], env: {} };
  let registry: McpRegistry | undefined;
  let client: McpClient | undefined;
  let raw: RawPeer | undefined;
  try {
    const registryModule = await import("../lib/mcp/registry/registry.ts").catch((e: Error) => e);
    const clientModule = await import("../lib/mcp/session/client.ts").catch((e: Error) => e);
    const stdioModule = await import("../lib/mcp/transports/stdio.ts").catch((e: Error) => e);
    if (registryModule instanceof Error) {
      const reason = `lib/mcp/registry/registry.ts: ${registryModule.message}`;
      return { rows: [naRow(SEQ_FIGURE, SEQ_TARGET, reason), naRow(CONC_FIGURE, "report", reason)], notes: [] };
    }
    const log = (line: string) => ctx.log(`  [registry] ${line}`);
    registry = await registryModule.McpRegistry.start([{ name: "bench", ...server }], { cwd, log });
    const r = registry;
    const { McpToolset } = await import("../lib/agent/mcp/tools.ts");
    const toolset = new McpToolset(r, { warn: log });
    const echo: Tool | undefined = toolset.tools().find((t) => toolset.route(t.name)?.tool === "echo");
    if (!echo) throw new Error(`the fixture server's echo tool is not in the registry (${r.snapshot()[0]?.error ?? "no error given"})`);
    const toolCtx: ToolContext = { cwd, signal: new AbortController().signal };
    const check = await echo.run({ text: "hi" }, toolCtx);
    if (check.isError || JSON.stringify(check.content).indexOf("hi") === -1) throw new Error(`echo via registry answered ${JSON.stringify(check)}`);
    const viaRegistry = () => echo.run({ text: "hi" }, toolCtx);

    let viaClient: (() => Promise<unknown>) | undefined;
    if (!(clientModule instanceof Error) && !(stdioModule instanceof Error)) {
      const transport = stdioModule.StdioTransport.spawn({ name: "bench-client", ...server }, { cwd });
      const c = new clientModule.McpClient("bench-client", transport, { features: {} });
      client = c;
      await c.connect({ timeoutMs: 10_000 });
      viaClient = () => c.callTool("echo", { text: "hi" });
    }
    raw = await RawPeer.start([server.command, ...server.args], cwd);
    const peer = raw;

    ctx.log(`tools/call: ${RUNS} runs of ${SEQUENTIAL_CALLS} sequential and ${CONCURRENT_CALLS} concurrent calls per path`);
    const cpu: Record<string, number[]> = {};
    const measured = (name: string, count: number, measure: () => Promise<number>) => withCpu((cpu[name] ??= []), count, measure);
    const seq = await series(RUNS, {
      registry: measured("seq-registry", SEQUENTIAL_CALLS, () => pool(SEQUENTIAL_CALLS, 1, viaRegistry)),
      ...(viaClient ? { client: measured("seq-client", SEQUENTIAL_CALLS, () => pool(SEQUENTIAL_CALLS, 1, viaClient!)) } : {}),
      raw: measured("seq-raw", SEQUENTIAL_CALLS, () => peer.sequential(SEQUENTIAL_CALLS)),
    } as Record<string, () => Promise<number>>);
    const conc = await series(RUNS, {
      registry: measured("conc-registry", CONCURRENT_CALLS, () => pool(CONCURRENT_CALLS, IN_FLIGHT, viaRegistry)),
      ...(viaClient ? { client: measured("conc-client", CONCURRENT_CALLS, () => pool(CONCURRENT_CALLS, IN_FLIGHT, viaClient!)) } : {}),
      raw: measured("conc-raw", CONCURRENT_CALLS, () => peer.concurrent(CONCURRENT_CALLS, IN_FLIGHT)),
    } as Record<string, () => Promise<number>>);
    const cpuCell = (key: string) => (cpu[key] && cpu[key].length > 1 ? `${median(cpu[key].slice(1)).toFixed(1)} µs` : "n/a");

    const seqRate = (name: string) => rate(SEQUENTIAL_CALLS, median(seq[name]!));
    const concRate = (name: string) => rate(CONCURRENT_CALLS, median(conc[name]!));
    const percent = (a: number, b: number) => `${Math.round((100 * a) / b)} %`;
    const rows: Row[] = [
      {
        figure: SEQ_FIGURE,
        value: perSecond(seqRate("registry")),
        baseline: `${perSecond(seqRate("raw"))} (raw ping-pong)`,
        ratio: percent(seqRate("registry"), seqRate("raw")),
        target: SEQ_TARGET,
        result: verdict(seqRate("registry") >= 0.6 * seqRate("raw")),
      },
      {
        figure: CONC_FIGURE,
        value: perSecond(concRate("registry")),
        baseline: `${perSecond(concRate("raw"))} (raw, ${IN_FLIGHT} in flight)`,
        ratio: percent(concRate("registry"), concRate("raw")),
        target: "report",
        result: "reported",
      },
    ];
    const notes = [
      [
        "### tools/call rates (calls per second, medians)",
        "",
        `| path | sequential | ${IN_FLIGHT} in flight | bench-process CPU per call, sequential | CPU per call, ${IN_FLIGHT} in flight |`,
        "|---|---|---|---|---|",
        ...["registry", "client", "raw"]
          .filter((name) => seq[name])
          .map(
            (name) =>
              `| ${label(name)} | ${perSecond(seqRate(name))} | ${perSecond(concRate(name))} | ${cpuCell(`seq-${name}`)} | ${cpuCell(`conc-${name}`)} |`,
          ),
        ...(clientModule instanceof Error ? [`| McpClient.callTool | n/a (${clientModule.message}) | | | |`] : []),
        "",
        "CPU per call is the bench process's own user + system time (the server's is not counted): it shows the client's cost",
        "even when other processes compete for the cores, which moves the rates a lot on a shared 2-core machine.",
      ].join("\n"),
    ];
    return { rows, notes };
  } finally {
    await Promise.allSettled([registry?.shutdown(), client?.close(), raw?.close()]);
    rmSync(cwd, { recursive: true, force: true });
  }
}

function label(name: string): string {
  return { registry: "McpRegistry tool.run (agent path)", client: "McpClient.callTool", raw: "raw ping-pong (no JSON-RPC layer)" }[name] ?? name;
}
