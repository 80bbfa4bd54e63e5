/**
 * Figure: peak RSS of the agent process itself during a `-p` run with 4 MCP servers, against
 * the same run with none. VmHWM is polled from /proc/<pid>/status while the agent runs (the
 * servers are separate processes and not counted). Bun's `resourceUsage().maxRSS` is not used:
 * in bun 1.4.5 it reported the bench process's largest child ever (2 GB, from the builds), not
 * this run's.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { fixtureServer, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, failureLine, timedModel, type BenchContext, type FigureResult, type Workspace } from "./figure.ts";
import { guarded, medianOrFailure, megabytes, naRow, series, verdict } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 5;
const POLL_MS = 2;
const LIMIT_BYTES = 60 * 2 ** 20;
const FIGURE = "peak RSS of the agent, `-p` run with 4 servers";
const TARGET = "≤ 60 MB";
const TIME = "/usr/bin/time";

export async function rssFigure(ctx: BenchContext): Promise<FigureResult> {
  const product = ctx.builds.product.path;
  if (!product) return { rows: [naRow(FIGURE, TARGET, ctx.builds.product.error ?? "not built")], notes: [] };
  if (process.platform !== "linux") return { rows: [naRow(FIGURE, TARGET, "needs /proc (Linux)")], notes: [] };
  const model = timedModel("done");
  const withServers = agentWorkspace(model.url);
  const without = agentWorkspace(model.url);
  try {
    writeMcpConfig(withServers.cwd, Object.fromEntries([1, 2, 3, 4].map((i) => [`s${i}`, fixtureServer()])));
    const failures: Record<string, string> = {};
    const peak = (name: "servers" | "none", ws: Workspace) =>
      guarded(name, failures, async () => {
        const run = await runProcess([product, "-p", "hi"], { cwd: ws.cwd, env: ws.env, pollRssEveryMs: POLL_MS });
        if (run.code !== 0) throw new Error(failureLine(product, run));
        if (run.polledPeakRss === undefined) throw new Error("VmHWM could not be read from /proc");
        return run.polledPeakRss;
      });
    ctx.log(`peak RSS: ${RUNS} runs with 4 servers and without, interleaved`);
    const samples = await series(RUNS, { servers: peak("servers", withServers), none: peak("none", without) });
    const crossCheck = await Promise.all([timeMaxRss(product, withServers), timeMaxRss(product, without)]);
    const servers = medianOrFailure(samples.servers, failures.servers);
    const none = medianOrFailure(samples.none, failures.none);
    if ("failure" in servers) return { rows: [naRow(FIGURE, TARGET, servers.failure)], notes: [] };
    const baseline = "value" in none ? none.value : NaN;
    const notes = [
      `Peak RSS of the agent process (VmHWM polled every ${POLL_MS} ms): with 4 servers ${samples.servers.map(megabytes).join(", ")}; ` +
        `without ${samples.none.map(megabytes).join(", ")}.` +
        (crossCheck[0] && crossCheck[1]
          ? ` Cross-check, one run each under \`${TIME} -f %M\` (the agent or its largest reaped child): ${megabytes(crossCheck[0])} with servers, ${megabytes(crossCheck[1])} without.`
          : ""),
    ];
    return {
      rows: [
        {
          figure: FIGURE,
          value: megabytes(servers.value),
          baseline: `${"value" in none ? megabytes(baseline) : `n/a (${(none as { failure: string }).failure})`} (same run, no servers)`,
          ratio: Number.isNaN(baseline) ? "—" : `${servers.value < baseline ? "−" : "+"}${megabytes(Math.abs(servers.value - baseline))}`,
          target: TARGET,
          result: verdict(servers.value <= LIMIT_BYTES),
        },
      ],
      notes,
    };
  } finally {
    model.stop();
    withServers.remove();
    without.remove();
  }
}

/** Max RSS in bytes of one run under GNU time (`%M`, kB), or undefined when it is not installed or the run fails. */
async function timeMaxRss(product: string, ws: Workspace): Promise<number | undefined> {
  if (!existsSync(TIME)) return undefined;
  const out = join(ws.cwd, "..", `${basename(ws.cwd)}.time`);
  try {
    const run = await runProcess([TIME, "-f", "%M", "-o", out, product, "-p", "hi"], { cwd: ws.cwd, env: ws.env });
    const kb = Number(readFileSync(out, "utf8").trim().split("\n").at(-1));
    return run.code === 0 && Number.isFinite(kb) ? kb * 1024 : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(out, { force: true });
  }
}
