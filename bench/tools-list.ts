/**
 * How a very large tools/list scales, standalone (`bun run bench/tools-list.ts [--runs N]`): the
 * measurements of the `tools-list` figure (fig-tools-list.ts), through your_program.sh, printed as
 * a table with the 100 000 / 10 000 ratios, which should stay at or under 10 for handling linear
 * in the reply. A benchmark, not a test: nothing here asserts on time.
 */
import { parseArgs } from "node:util";
import { PROGRAM } from "../tests/support/run.ts";
import { measureToolsList, type ToolsListMeasure } from "./fig-tools-list.ts";

const { values } = parseArgs({ args: process.argv.slice(2), options: { runs: { type: "string" } } });
const RUNS = Number(values.runs ?? 3);

const small = await measureToolsList([PROGRAM], 10_000, RUNS);
const large = await measureToolsList([PROGRAM], 100_000, RUNS);
const mb = (bytes: number) => bytes / 2 ** 20;
const row = (n: number, m: ToolsListMeasure) =>
  `| ${n.toLocaleString("en")} | ${mb(m.replyBytes).toFixed(1)} MB | ${m.firstRequestMs.toFixed(0)} ms | ${m.parseMs.toFixed(1)} ms | ${mb(m.peakBytes).toFixed(0)} MB |`;
process.stdout.write(
  [
    `tools/list of one server, -p to the first model request (median of ${RUNS}):`,
    "",
    "| tools | reply | to first request | JSON.parse of the reply | agent peak RSS |",
    "|---|---|---|---|---|",
    row(10_000, small),
    row(100_000, large),
    "",
    `100 000 / 10 000: time ${(large.firstRequestMs / small.firstRequestMs).toFixed(1)}×, JSON.parse ${(large.parseMs / small.parseMs).toFixed(1)}×, peak RSS ${(large.peakBytes / small.peakBytes).toFixed(1)}× (the process's own ~60 MB included)`,
    "",
  ].join("\n"),
);
