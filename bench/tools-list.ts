/**
 * How a very large tools/list scales (`bun run bench/tools-list.ts [--runs N]`): one server (the
 * fault server's list-many) with 10 000 and with 100 000 tools, `-p` through your_program.sh to
 * the first model request. Printed per size: the median time from spawn to the first request, the
 * time to JSON.parse the same reply in this process (the floor any client pays), the agent's peak
 * RSS (VmHWM), and the 100 000 / 10 000 ratios, which should be near 10 for handling linear in
 * the reply. A benchmark, not a test: nothing here asserts on time.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { BUN, PROGRAM, ROOT, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, timedModel } from "./figure.ts";
import { runProcess } from "./process-run.ts";

const FAULT_SERVER = join(ROOT, "fixtures/servers/fault-server.ts");
const { values } = parseArgs({ args: process.argv.slice(2), options: { runs: { type: "string" } } });
const RUNS = Number(values.runs ?? 3);

/** The reply the server sends for `n` tools, as text, the same shape as list-many's. */
function replyText(n: number): string {
  const tools = Array.from({ length: n }, (_, i) => ({
    name: `t${i}`,
    description: `Tool number ${i}.`,
    inputSchema: { type: "object", properties: { x: { type: "string" } } },
  }));
  return JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools } });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(n: number): Promise<{ firstRequestMs: number; parseMs: number; peakMb: number; replyMb: number }> {
  const times: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const model = timedModel("done");
    const ws = agentWorkspace(model.url);
    try {
      writeMcpConfig(ws.cwd, { many: { command: BUN, args: [FAULT_SERVER, "list-many"], env: { FAULT_TOOLS: String(n) } } });
      const run = await runProcess([PROGRAM, "-p", "hi"], { cwd: ws.cwd, env: ws.env, pollRssEveryMs: 5, timeoutMs: 300_000 });
      const arrival = model.lastArrival();
      if (run.code !== 0 || arrival === undefined) throw new Error(`run failed (${run.code}): ${run.stderr.trim().split("\n")[0]}`);
      times.push(arrival - run.spawnedAt);
      if (run.polledPeakRss !== undefined) peaks.push(run.polledPeakRss);
    } finally {
      model.stop();
      ws.remove();
    }
  }
  const text = replyText(n);
  const parses: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    JSON.parse(text);
    parses.push(performance.now() - start);
  }
  return {
    firstRequestMs: median(times),
    parseMs: median(parses),
    peakMb: peaks.length ? median(peaks) / 2 ** 20 : Number.NaN,
    replyMb: text.length / 2 ** 20,
  };
}

const small = await measure(10_000);
const large = await measure(100_000);
const row = (n: number, m: typeof small) =>
  `| ${n.toLocaleString("en")} | ${m.replyMb.toFixed(1)} MB | ${m.firstRequestMs.toFixed(0)} ms | ${m.parseMs.toFixed(1)} ms | ${m.peakMb.toFixed(0)} MB |`;
process.stdout.write(
  [
    `tools/list of one server, -p to the first model request (median of ${RUNS}):`,
    "",
    "| tools | reply | to first request | JSON.parse of the reply | agent peak RSS |",
    "|---|---|---|---|---|",
    row(10_000, small),
    row(100_000, large),
    "",
    `100 000 / 10 000: time ${(large.firstRequestMs / small.firstRequestMs).toFixed(1)}×, JSON.parse ${(large.parseMs / small.parseMs).toFixed(1)}×, peak RSS ${(large.peakMb / small.peakMb).toFixed(1)}× (the process's own ~60 MB included)`,
    "",
  ].join("\n"),
);
