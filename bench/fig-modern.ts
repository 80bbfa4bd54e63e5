/**
 * The MCP 2026-07-28 era, measured against the TypeScript SDK v2 in the same run:
 * - sequential modern-era `tools/call` (shout) over Streamable HTTP against the SDK v2 strict server
 *   (`createMcpHandler`, `legacy: 'reject'`, its own process): our McpClient on our HttpTransport
 *   beside the SDK v2 client (`@modelcontextprotocol/client`, `versionNegotiation: {pin}`), runs
 *   alternating; the median rate ratio and each client's CPU per call (this process);
 * - start-up: `mcp call` of the product executable against a remembered modern server (discovery
 *   first, verdict on file: no probe) beside a legacy one (the both-eras SDK v2 server, `initialize`
 *   first), alternating runs, median wall time.
 */
import { join } from "node:path";
import { approveProjectServers, BUN, ROOT, baseEnv, tempDir, writeMcpConfig } from "../tests/support/run.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, perSecond, type Row, series, verdict } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 7;
const CALLS = 200;
const START_RUNS = 11;
const RATE_FIGURE = "sequential modern-era `tools/call` over Streamable HTTP, SDK v2 strict server";
const START_FIGURE = "`mcp call` start-up: remembered modern server vs legacy server";
const SDK2 = join(ROOT, "fixtures/servers/sdk2-server.ts");

interface Caller {
  shout(text: string): Promise<string>;
  close(): Promise<void>;
}

async function startServer(...flags: string[]): Promise<{ url: string; stop: () => void }> {
  const proc = Bun.spawn([BUN, SDK2, "http", "--quiet", ...flags], { stdout: "pipe", stderr: "ignore" });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
  return { url: out.trim(), stop: () => proc.kill() };
}

const firstText = (content: unknown) => String((content as { text?: string }[] | undefined)?.[0]?.text ?? "");

async function ours(url: string): Promise<Caller> {
  const { McpClient } = await import("../lib/mcp/session/client.ts");
  const { HttpTransport } = await import("../lib/mcp/transports/http.ts");
  const client = new McpClient("bench", new HttpTransport({ url }), { features: {}, negotiation: { discoverFirst: true, probeTimeoutMs: 10_000 } });
  const info = await client.connect({ timeoutMs: 30_000 });
  if (info.era !== "modern") throw new Error(`our client landed in the ${info.era} era`);
  return { shout: async (text) => firstText((await client.callTool("shout", { text }, { timeoutMs: 30_000 })).content), close: () => client.close() };
}

async function sdk(url: string): Promise<Caller> {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const client = new Client({ name: "bench-sdk2", version: "2.4.0" }, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    shout: async (text) => firstText(((await client.callTool({ name: "shout", arguments: { text } })) as { content?: unknown }).content),
    close: () => client.close(),
  };
}

async function sequential(caller: Caller, cpu: number[]): Promise<number> {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await caller.shout("hi");
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  cpu.push((used.user + used.system) / 1000 / CALLS);
  return wall;
}

/** Rows of the tools/call rate: ours beside the SDK v2 client's. */
async function rateRows(ctx: BenchContext, url: string): Promise<Row[]> {
  const [a, b] = await Promise.all([ours(url), sdk(url)]);
  try {
    if ((await a.shout("check")) !== "CHECK" || (await b.shout("check")) !== "CHECK") throw new Error("shout answered wrongly");
    ctx.log(`modern: ${RUNS} alternating runs of ${CALLS} sequential calls, ours and the SDK v2 client's`);
    const cpu = { ours: [] as number[], sdk: [] as number[] };
    const runs = await series(RUNS, { ours: () => sequential(a, cpu.ours), sdk: () => sequential(b, cpu.sdk) });
    // The ratio of each alternating pair, then the median: both saw the same machine at the same moment.
    const ratios = runs.ours.map((w, i) => runs.sdk[i]! / w);
    const ratio = median(ratios);
    const rate = (samples: number[]) => CALLS / (median(samples) / 1000);
    const cpuOurs = median(cpu.ours.slice(1));
    const cpuSdk = median(cpu.sdk.slice(1));
    return [
      {
        figure: RATE_FIGURE,
        value: perSecond(rate(runs.ours)),
        baseline: `${perSecond(rate(runs.sdk))} (SDK v2 client 2.4.0)`,
        ratio: `${ratio.toFixed(2)}× (median of pairs)`,
        target: "≥ 0.95× the SDK v2 client's rate",
        result: verdict(ratio >= 0.95),
      },
      {
        figure: "… its client CPU per call (this process; the server runs in its own)",
        value: `${cpuOurs.toFixed(3)} ms`,
        baseline: `${cpuSdk.toFixed(3)} ms (SDK v2 client 2.4.0)`,
        ratio: `${(cpuSdk / cpuOurs).toFixed(2)}× less`,
        target: "less than the SDK v2 client",
        result: verdict(cpuOurs < cpuSdk),
      },
    ];
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** Rows of the start-up comparison: the product's `mcp call` against a remembered modern and a legacy server. */
async function startRows(ctx: BenchContext, exe: string, modernUrl: string, legacyUrl: string): Promise<Row[]> {
  const config = tempDir("bench-eras-");
  const env = { ...baseEnv(), CLAUDE_CONFIG_DIR: config };
  const modernDir = tempDir("bench-modern-");
  const legacyDir = tempDir("bench-legacy-");
  writeMcpConfig(modernDir, { m: { type: "http", url: modernUrl, protocolVersion: "2026-07-28" } });
  writeMcpConfig(legacyDir, { m: { type: "http", url: legacyUrl } });
  // The inspector starts a project server only once approved, as a script does with `mcp approve`.
  await Promise.all([modernDir, legacyDir].map((cwd) => approveProjectServers(cwd, env)));
  const once = async (cwd: string) => {
    const r = await runProcess([exe, "mcp", "call", "m", "shout", '{"text":"x"}'], { cwd, env });
    if (r.code !== 0 || r.stdout !== "X\n") throw new Error(`mcp call failed: ${r.stderr.trim()}`);
    return r.exitedAt - r.spawnedAt;
  };
  await once(modernDir); // remembers the verdict; every measured run then starts without a probe
  ctx.log(`modern: ${START_RUNS} alternating start-ups, remembered modern and legacy`);
  const runs = await series(START_RUNS, { modern: () => once(modernDir), legacy: () => once(legacyDir) });
  const modern = median(runs.modern);
  const legacy = median(runs.legacy);
  return [
    {
      figure: START_FIGURE,
      value: ms(modern),
      baseline: `${ms(legacy)} (legacy: initialize, initialized, tools/list)`,
      ratio: `${(legacy / modern).toFixed(2)}×`,
      target: "no slower than legacy (≤ 1.05×)",
      result: verdict(modern <= legacy * 1.05),
    },
  ];
}

export async function modernFigure(ctx: BenchContext): Promise<FigureResult> {
  const stops: (() => void)[] = [];
  try {
    const strict = await startServer("--strict");
    const both = await startServer();
    stops.push(strict.stop, both.stop);
    const rows = await rateRows(ctx, strict.url);
    const exe = ctx.builds.product.path;
    rows.push(
      ...(exe ? await startRows(ctx, exe, strict.url, both.url) : [naRow(START_FIGURE, "no slower than legacy", ctx.builds.product.error ?? "no build")]),
    );
    const notes = [
      [
        "### MCP 2026-07-28 against the SDK v2 client",
        "",
        `Both clients talk to the same SDK v2 strict server (its own process) in the same run, alternating: ${RUNS} runs of ${CALLS} sequential \`shout\` calls; the ratio is the median of each pair's SDK ÷ ours wall time. Client CPU is this process's CPU per call.`,
        `Start-up: the product executable's \`mcp call\`, ${START_RUNS} alternating runs: against the strict server with \`"protocolVersion": "2026-07-28"\` and its verdict remembered (\`server/discover\`, \`subscriptions/listen\`, \`tools/list\`, \`tools/call\`), and against the both-eras server by default (\`initialize\`, \`notifications/initialized\`, \`tools/list\`, \`tools/call\`).`,
      ].join("\n"),
    ];
    return { rows, notes };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { rows: [naRow(RATE_FIGURE, "≥ 0.95× the SDK v2 client's rate", reason), naRow(START_FIGURE, "no slower than legacy", reason)], notes: [] };
  } finally {
    for (const stop of stops) stop();
  }
}
