/**
 * Figure: one 1, 10 and 100 MB response line through the client's receive path: a byte stream
 * of 64 KB chunks → framing.ts `readLines` (split on the newline byte, one join, UTF-8 decode)
 * → `JsonRpcConnection` (the JSON parse, dispatch, the pending request resolved). Baseline:
 * `JSON.parse` of the same line as a string, i.e. the parse alone.
 */
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio, series, verdict, type Row } from "./measure.ts";

const MB = 2 ** 20;
const CHUNK_BYTES = 64 * 1024;
const SIZES_MB = [1, 10, 100];
/** Runs and warm-ups per size: fewer for bigger lines (the 100 MB ones dominate the time), more warm-ups for small ones so the JIT has settled. */
const RUNS: Record<number, { runs: number; warmup: number }> = { 1: { runs: 25, warmup: 5 }, 10: { runs: 7, warmup: 2 }, 100: { runs: 5, warmup: 1 } };
const TARGET = "≤ 1.3× baseline";
const LINEAR_TARGET = "≤ 11× the 10 MB time";

/** Source-like text with the escapes a real tool result carries (quotes, newlines, tabs). */
const FILLER = 'export function f(a, b) {\n\treturn "a" + b; // a line of code\n}\n';
/** The id a fresh JsonRpcConnection gives its first request. */
const FIRST_ID = 1;

/**
 * A `tools/call` response line (no trailing newline) whose text block makes the whole line
 * `bytes` long, give or take one filler repetition.
 */
export function responseLine(bytes: number): string {
  const shell = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: FIRST_ID, result: { content: [{ type: "text", text }] } });
  const per = JSON.stringify(FILLER).length - 2;
  const repeats = Math.max(0, Math.floor((bytes - shell("").length) / per));
  return shell(FILLER.repeat(repeats));
}

/** `bytes` cut into views of `size` bytes, delivered as a ReadableStream one view per pull. */
function chunkedStream(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

export async function framingFigure(ctx: BenchContext): Promise<FigureResult> {
  const figure = (mb: number) => `framing + parse of one ${mb} MB line (64 KB chunks)`;
  const framing = await import("../lib/mcp/transports/wire/framing.ts").catch((e: Error) => e);
  const jsonrpc = await import("../lib/mcp/session/jsonrpc.ts").catch((e: Error) => e);
  if (framing instanceof Error || jsonrpc instanceof Error) {
    const reason = (framing instanceof Error ? framing : (jsonrpc as Error)).message;
    return { rows: [...SIZES_MB.map((mb) => naRow(figure(mb), TARGET, reason)), naRow("framing + parse, 100 MB vs 10 MB", LINEAR_TARGET, reason)], notes: [] };
  }
  /** The client's receive path for one line; resolves with the elapsed ms. */
  const throughClient = async (bytes: Uint8Array): Promise<number> => {
    Bun.gc(true);
    const started = performance.now();
    // The line was built for FIRST_ID; a connection numbering from elsewhere must fail, not hang.
    const write = (message: string) => {
      if (JSON.parse(message).id !== FIRST_ID) throw new Error(`framing bench: JsonRpcConnection no longer numbers requests from ${FIRST_ID}`);
    };
    const conn = new jsonrpc.JsonRpcConnection(framing.readLines(chunkedStream(bytes, CHUNK_BYTES)), { peer: "bench", write });
    const result = (await conn.request("bench/echo")) as { content: { text: string }[] };
    const elapsed = performance.now() - started;
    if (typeof result?.content?.[0]?.text !== "string") throw new Error("framing bench: the response was not delivered intact");
    conn.close();
    return elapsed;
  };
  const rows: Row[] = [];
  const perSize: Record<number, number> = {};
  const parsePerSize: Record<number, number> = {};
  const detail: string[] = [];
  for (const mb of SIZES_MB) {
    const line = responseLine(mb * MB);
    const bytes = new TextEncoder().encode(`${line}\n`);
    // The baseline parses a string made the way the client makes it, so both parse the same representation.
    const text = new TextDecoder().decode(bytes.subarray(0, bytes.length - 1));
    const { runs, warmup } = RUNS[mb]!;
    ctx.log(`framing: ${mb} MB line, ${warmup} warm-up + ${runs} runs of each`);
    const samples = await series(
      runs,
      {
        client: () => throughClient(bytes),
        parse: async () => {
          // Both sides start from a collected heap, so neither pays for the other's garbage.
          Bun.gc(true);
          const started = performance.now();
          JSON.parse(text);
          return performance.now() - started;
        },
      },
      warmup,
    );
    const client = median(samples.client);
    const parse = median(samples.parse);
    perSize[mb] = client;
    parsePerSize[mb] = parse;
    rows.push({
      figure: figure(mb),
      value: ms(client),
      baseline: `${ms(parse)} (JSON.parse)`,
      ratio: ratio(client, parse),
      target: TARGET,
      result: verdict(client <= 1.3 * parse),
    });
    detail.push(
      `| ${mb} MB | ${(bytes.length / MB).toFixed(2)} MB | ${ms(client)} | ${ms(parse)} | ${(bytes.length / MB / (client / 1000)).toFixed(0)} MB/s |`,
    );
  }
  // The runtime's own growth goes in the baseline column: if JSON.parse is not linear, no client path can be.
  const growth = perSize[100]! / perSize[10]!;
  const parseGrowth = parsePerSize[100]! / parsePerSize[10]!;
  rows.push({
    figure: "framing + parse, 100 MB time ÷ 10 MB time (linearity)",
    value: `${growth.toFixed(2)}× (${ms(perSize[100]!)} ÷ ${ms(perSize[10]!)})`,
    baseline: `${parseGrowth.toFixed(2)}× (JSON.parse alone)`,
    ratio: ratio(growth, parseGrowth),
    target: LINEAR_TARGET,
    result: verdict(growth <= 11),
  });
  const notes = [
    ["### Framing + parse detail (medians)", "", "| line | bytes | client path | JSON.parse | client throughput |", "|---|---|---|---|---|", ...detail].join(
      "\n",
    ),
  ];
  return { rows, notes };
}
