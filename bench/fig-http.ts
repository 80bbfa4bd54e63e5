/**
 * Figures over Streamable HTTP, each through our McpClient on our HttpTransport beside the official
 * MCP SDK client's StreamableHTTPClientTransport measured in the same run against the same server:
 * - the sequential `tools/call` rate against the npm everything server (`streamableHttp` mode);
 * - one 10 MB result from the everything server: `resources/read` of a session resource its
 *   gzip-file-as-resource tool made from 7.5 MiB of incompressible bytes (its `echo` cannot carry
 *   10 MB: the server answers 413 to a request body that large);
 * - one `tools/call` with a 10 MB result from our HTTP fixture (`big`), with SSE and with JSON replies.
 * For each 10 MB figure also the client's own CPU time (this process; the servers run in their own)
 * and the floor: a raw session that reads the reply's bytes and drops them, so what remains is the
 * server's work and the transfer, which every client waits for alike and which bounds the ratio.
 */
import type { BenchContext, FigureResult } from "./figure.ts";
import { type Caller, makeResource, ours, raw, type RawSession, sdk, serveNoise, sessionResource, startFixture } from "./http-callers.ts";
import { median, ms, naRow, perSecond, series, verdict, type Row } from "./measure.ts";
import { startEverythingHttp, stopRemotePeers } from "../tests/support/http-peers.ts";

const RATE_RUNS = 5;
const BIG_RUNS = 21;
const CALLS = 300;
const BIG_BYTES = 10 * 1024 * 1024;
/** Incompressible bytes whose base64 is 10 MiB. */
const NOISE_BYTES = (BIG_BYTES * 3) / 4;
const RATE_FIGURE = "sequential `tools/call` (echo) over Streamable HTTP, everything server";
const EVERYTHING_FIGURE = "one 10 MB result over Streamable HTTP, everything server (`resources/read`, SSE reply)";
const SSE_FIGURE = "one `tools/call` with a 10 MB result over Streamable HTTP (SSE reply, fixture server)";
const JSON_FIGURE = "one `tools/call` with a 10 MB result over Streamable HTTP (JSON reply, fixture server)";
const TWICE = "≥ 2× faster than the SDK";

interface Sample {
  wall: number;
  cpu: number;
}

/** Times `op`: wall-clock ms and this process's CPU ms (every thread: JS, HTTP, GC). */
async function timed(op: () => Promise<number>, atLeast: number): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const size = await op();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  if (size < atLeast) throw new Error(`a 10 MB reply came back with ${size} characters`);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** Ours, the SDK's and the raw floor, interleaved: medians of wall and CPU. */
async function bigSeries(mine: () => Promise<number>, theirs: () => Promise<number>, floor: () => Promise<number>) {
  const samples: Record<"ours" | "sdk" | "floor", Sample[]> = { ours: [], sdk: [], floor: [] };
  const record = (name: keyof typeof samples, op: () => Promise<number>) => async () => {
    samples[name].push(await timed(op, BIG_BYTES));
    return 0;
  };
  // No warm-up inside `series`: `record` keeps every sample, and the first of each is dropped here.
  await series(BIG_RUNS + 1, { ours: record("ours", mine), sdk: record("sdk", theirs), floor: record("floor", floor) }, 0);
  const of = (name: keyof typeof samples, key: keyof Sample) => median(samples[name].slice(1).map((s) => s[key]));
  return {
    ours: of("ours", "wall"),
    sdk: of("sdk", "wall"),
    floor: of("floor", "wall"),
    oursCpu: of("ours", "cpu"),
    sdkCpu: of("sdk", "cpu"),
    floorCpu: of("floor", "cpu"),
  };
}

/** The rows of one 10 MB figure: the result (against the target), the client's CPU, the floor. */
function bigRows(figure: string, m: Awaited<ReturnType<typeof bigSeries>>, target: string | undefined): Row[] {
  const sdkLabel = (v: number) => `${ms(v)} (SDK StreamableHTTPClientTransport)`;
  return [
    {
      figure,
      value: ms(m.ours),
      baseline: sdkLabel(m.sdk),
      ratio: `${(m.sdk / m.ours).toFixed(2)}× faster`,
      target: target ?? "—",
      result: target ? verdict(m.sdk >= 2 * m.ours) : "reported",
    },
    {
      figure: `… its client CPU alone (this process; the server runs in its own)`,
      value: ms(m.oursCpu),
      baseline: sdkLabel(m.sdkCpu),
      ratio: `${(m.sdkCpu / m.oursCpu).toFixed(2)}× less`,
      target: "—",
      result: "reported",
    },
    {
      figure: `… its floor: server and transfer (raw session, reply bytes read and dropped)`,
      value: `${ms(m.floor)} (CPU ${ms(m.floorCpu)})`,
      baseline: sdkLabel(m.sdk),
      ratio: `SDK ÷ floor ${(m.sdk / m.floor).toFixed(2)}×`,
      target: "2× needs SDK ÷ floor ≥ 2",
      result: `reported (2× ${m.sdk >= 2 * m.floor ? "within" : "out of"} reach)`,
    },
  ];
}

export async function httpFigure(ctx: BenchContext): Promise<FigureResult> {
  const closers: (() => unknown)[] = [];
  try {
    const server = await startEverythingHttp("streamableHttp");
    const noise = serveNoise(NOISE_BYTES);
    closers.push(noise.stop);
    const sseFixture = await startFixture(true);
    const jsonFixture = await startFixture(false);
    closers.push(sseFixture.stop, jsonFixture.stop);
    const connect = async (make: (url: string) => Promise<Caller>, url: string) => {
      const caller = await make(url);
      closers.push(() => caller.close());
      return caller;
    };
    const [a, b, sseA, sseB, jsonA, jsonB] = await Promise.all([
      connect(ours, server.url),
      connect(sdk, server.url),
      connect(ours, sseFixture.url),
      connect(sdk, sseFixture.url),
      connect(ours, jsonFixture.url),
      connect(sdk, jsonFixture.url),
    ]);
    const [rawEverything, rawSse, rawJson]: RawSession[] = await Promise.all([raw(server.url), raw(sseFixture.url), raw(jsonFixture.url)]);
    if ((await a.echo("check")) !== "Echo: check") throw new Error("our echo answered wrongly");
    // One resource per session: the server keeps them per session, named apart.
    const [uriA, uriB] = await Promise.all([makeResource(a, "bench-ours.gz", noise.url), makeResource(b, "bench-sdk.gz", noise.url)]);
    await rawEverything.request("tools/call", {
      name: "gzip-file-as-resource",
      arguments: { name: "bench-raw.gz", data: noise.url, outputType: "resourceLink" },
    });

    ctx.log(`http: ${RATE_RUNS} runs of ${CALLS} sequential calls; ${BIG_RUNS} runs of each 10 MB result, ours, the SDK's and the raw floor`);
    const rateCpu = { ours: [] as number[], sdk: [] as number[] };
    const rate = await series(RATE_RUNS, { ours: () => sequential(a, rateCpu.ours), sdk: () => sequential(b, rateCpu.sdk) });
    const everything = await bigSeries(
      () => a.read(uriA),
      () => b.read(uriB),
      () => rawEverything.request("resources/read", { uri: sessionResource("bench-raw.gz") }, BIG_BYTES),
    );
    const bigCall = { name: "big", arguments: { bytes: BIG_BYTES } };
    const viaSse = await bigSeries(
      async () => (await sseA.big(BIG_BYTES)).length,
      async () => (await sseB.big(BIG_BYTES)).length,
      () => rawSse.request("tools/call", bigCall, BIG_BYTES),
    );
    const viaJson = await bigSeries(
      async () => (await jsonA.big(BIG_BYTES)).length,
      async () => (await jsonB.big(BIG_BYTES)).length,
      () => rawJson.request("tools/call", bigCall),
    );

    const perSec = (samples: number[]) => CALLS / (median(samples) / 1000);
    const oursRate = perSec(rate.ours);
    const sdkRate = perSec(rate.sdk);
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
        figure: "… its client CPU per call alone (this process; the server runs in its own)",
        value: `${median(rateCpu.ours.slice(1)).toFixed(3)} ms`,
        baseline: `${median(rateCpu.sdk.slice(1)).toFixed(3)} ms (SDK StreamableHTTPClientTransport)`,
        ratio: `${(median(rateCpu.sdk.slice(1)) / median(rateCpu.ours.slice(1))).toFixed(2)}× less`,
        target: "—",
        result: "reported",
      },
      ...bigRows(EVERYTHING_FIGURE, everything, TWICE),
      ...bigRows(SSE_FIGURE, viaSse, TWICE),
      ...bigRows(JSON_FIGURE, viaJson, undefined),
    ];
    const notes = [
      [
        "### Streamable HTTP against the SDK client",
        "",
        `Both clients talk to the same servers in the same run, interleaved. Sequential: medians of ${RATE_RUNS} runs of ${CALLS} \`echo\` calls against the everything server (\`streamableHttp\` mode, SSE replies).`,
        `10 MB: medians of ${BIG_RUNS} runs (after a warm-up) of ours, the SDK's and a raw session (the floor), in turn. Against the everything server, \`resources/read\` of a session resource its \`gzip-file-as-resource\` tool made from 7.5 MiB of incompressible bytes (a 10 MiB base64 blob); its \`echo\` cannot carry 10 MB (HTTP 413 to the request). Against our fixture server (its own process), the \`big\` tool, with SSE and with JSON replies.`,
        "Client CPU is this process's CPU time during the call (JavaScript, Bun's HTTP thread and GC); the servers run in their own processes. The floor reads the reply's bytes and drops them, no decoding and no JSON, and stops the clock when the response event is complete (a JSON reply: at its end). A client can be at most SDK ÷ floor times faster than the SDK.",
      ].join("\n"),
    ];
    return { rows, notes };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      rows: [
        naRow(RATE_FIGURE, "≥ 1.0× the SDK's rate", reason),
        naRow(EVERYTHING_FIGURE, TWICE, reason),
        naRow(SSE_FIGURE, TWICE, reason),
        naRow(JSON_FIGURE, "—", reason),
      ],
      notes: [],
    };
  } finally {
    await Promise.all(
      closers.map(async (close) => {
        try {
          await close();
        } catch {
          // Already gone: nothing to release.
        }
      }),
    );
    stopRemotePeers();
  }
}

/** CALLS sequential echo calls: resolves with their wall ms; pushes this process's CPU ms per call to `cpu` (warm-up included). */
async function sequential(caller: Caller, cpu: number[]): Promise<number> {
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await caller.echo("hi");
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  cpu.push((used.user + used.system) / 1000 / CALLS);
  return wall;
}
