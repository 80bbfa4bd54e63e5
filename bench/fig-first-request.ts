/**
 * Figure: launch → first model request with 1, 4 and 16 MCP servers, each a fixture server that
 * answers initialize after 100 ms. Baseline: bench/raw-handshake.ts (compiled like the agent)
 * doing only the handshakes and one request. Both are timed from spawn to the moment the
 * scripted model server has read the request body, on the bench's clock.
 */
import { fixtureServer, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, failureLine, timedModel, type BenchContext, type FigureResult, type TimedModel } from "./figure.ts";
import { guarded, medianOrFailure, ms, msDelta, naRow, series, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const SIZES = [1, 4, 16];
const RUNS = 5;
const INIT_DELAY_MS = 100;
const SLACK_MS = 15;
const TARGET = `≤ baseline + ${SLACK_MS} ms`;

const figureName = (n: number) => `launch → first model request, ${n} server${n > 1 ? "s" : ""} (init after ${INIT_DELAY_MS} ms)`;

/**
 * Runs `argv` in `cwd` and returns spawn → first request arrival, in ms.
 * @throws Error when it exits non-zero, never reaches the model, or reports a failed server.
 */
async function toFirstRequest(model: TimedModel, argv: string[], cwd: string, env: Record<string, string | undefined>): Promise<number> {
  model.reset();
  const run = await runProcess(argv, { cwd, env });
  if (run.code !== 0) throw new Error(failureLine(argv[0]!, run));
  const failed = run.stderr.split("\n").find((l) => /failed to start|disconnected/.test(l));
  if (failed) throw new Error(failed);
  const arrival = model.lastArrival();
  if (arrival === undefined) throw new Error(`${argv[0]} exited without a model request`);
  return arrival - run.spawnedAt;
}

export async function firstRequestFigure(ctx: BenchContext): Promise<FigureResult> {
  const { product, rawHandshake, variant } = ctx.builds;
  if (!product.path || !rawHandshake.path) {
    const reason = product.error ?? rawHandshake.error ?? "not built";
    return { rows: SIZES.map((n) => naRow(figureName(n), TARGET, reason)), notes: [] };
  }
  const model = timedModel("done");
  const rows: Row[] = [];
  const details: string[] = [];
  try {
    for (const n of SIZES) {
      const ws = agentWorkspace(model.url);
      try {
        const servers = Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i + 1}`, fixtureServer("--init-delay", String(INIT_DELAY_MS))]));
        writeMcpConfig(ws.cwd, servers);
        const failures: Record<string, string> = {};
        ctx.log(`first request, ${n} server(s): ${RUNS} runs each of the agent and the raw handshake, interleaved`);
        const measures: Record<string, () => Promise<number>> = {
          agent: guarded("agent", failures, () => toFirstRequest(model, [product.path!, "-p", "hi"], ws.cwd, ws.env)),
          raw: guarded("raw", failures, () => toFirstRequest(model, [rawHandshake.path!], ws.cwd, ws.env)),
        };
        // The other build, for the build-script recommendation; it never decides the row.
        if (variant.path) measures.variant = guarded("variant", failures, () => toFirstRequest(model, [variant.path!, "-p", "hi"], ws.cwd, ws.env));
        const samples = (await series(RUNS, measures)) as Record<string, number[]>;
        const agent = medianOrFailure(samples.agent, failures.agent);
        const raw = medianOrFailure(samples.raw, failures.raw);
        if ("failure" in agent || "failure" in raw) {
          rows.push(naRow(figureName(n), TARGET, "failure" in agent ? agent.failure : (raw as { failure: string }).failure));
          continue;
        }
        rows.push({
          figure: figureName(n),
          value: ms(agent.value),
          baseline: `${ms(raw.value)} (raw handshake)`,
          ratio: msDelta(agent.value - raw.value),
          target: TARGET,
          result: verdict(agent.value <= raw.value + SLACK_MS),
        });
        const other = medianOrFailure(samples.variant, failures.variant ?? (variant.path ? undefined : variant.error));
        const list = (name: string) => samples[name]?.map((v) => v.toFixed(0)).join(", ") ?? "";
        details.push(
          `| ${n} | ${ms(agent.value)}: ${list("agent")} | ${"value" in other ? `${ms(other.value)}: ${list("variant")}` : `n/a (${other.failure})`} | ${ms(raw.value)}: ${list("raw")} |`,
        );
      } finally {
        ws.remove();
      }
    }
  } finally {
    model.stop();
  }
  const notes = details.length
    ? [
        [
          "### Launch → first model request: median, then every sample (ms, run order)",
          "",
          `| servers | agent (${product.label}) | agent (${variant.label}) | raw handshake |`,
          "|---|---|---|---|",
          ...details,
        ].join("\n"),
      ]
    : [];
  return { rows, notes };
}
