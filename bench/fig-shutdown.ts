/**
 * Figure: shutdown, from the final answer to process exit, with 4 well-behaved MCP servers and
 * with 1 that ignores stdin EOF (fixture flag --ignore-stdin-eof), which only the transport's
 * SIGTERM after its close grace ends (MCP 2025-11-25, basic/lifecycle#stdio).
 * "Answer" is timed twice: when its bytes appear on the agent's stdout (the user's view) and
 * when the scripted model handed out the final reply (which also counts any shutdown work the
 * agent does before printing).
 */
import { fixtureServer, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, failureLine, timedModel, type BenchContext, type FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, ms, naRow, series, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 5;
const WARMUP = 1;
const WELL_BEHAVED_MS = 20;
/** lib/mcp/stdio.ts `close(graceMs = 500)`, unless the module exports the constant by now. */
const FALLBACK_GRACE_MS = 500;
const STUBBORN_SLACK_MS = 50;

interface Config {
  name: string;
  servers: Record<string, unknown>;
  limitMs: number;
  target: string;
}

async function closeGraceMs(): Promise<{ ms: number; source: string }> {
  const stdio = (await import("../lib/mcp/transports/stdio.ts").catch(() => ({}))) as Record<string, unknown>;
  for (const key of ["DEFAULT_CLOSE_GRACE_MS", "CLOSE_GRACE_MS", "DEFAULT_GRACE_MS"]) {
    if (typeof stdio[key] === "number") return { ms: stdio[key] as number, source: `lib/mcp/stdio.ts ${key}` };
  }
  return { ms: FALLBACK_GRACE_MS, source: "lib/mcp/stdio.ts close() default" };
}

export async function shutdownFigure(ctx: BenchContext): Promise<FigureResult> {
  const grace = await closeGraceMs();
  const configs: Config[] = [
    {
      name: "4 well-behaved servers",
      servers: Object.fromEntries([1, 2, 3, 4].map((i) => [`s${i}`, fixtureServer()])),
      limitMs: WELL_BEHAVED_MS,
      target: `≤ ${WELL_BEHAVED_MS} ms`,
    },
    {
      name: "1 server ignoring stdin EOF",
      servers: { stubborn: fixtureServer("--ignore-stdin-eof") },
      limitMs: grace.ms + STUBBORN_SLACK_MS,
      target: `≤ grace + ${STUBBORN_SLACK_MS} ms = ${grace.ms + STUBBORN_SLACK_MS} ms`,
    },
  ];
  const figure = (c: Config) => `shutdown: answer on stdout → exit, ${c.name}`;
  const product = ctx.builds.product.path;
  if (!product) return { rows: configs.map((c) => naRow(figure(c), c.target, ctx.builds.product.error ?? "not built")), notes: [] };

  const model = timedModel("done");
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    for (const config of configs) {
      const ws = agentWorkspace(model.url);
      try {
        writeMcpConfig(ws.cwd, config.servers);
        const fromReply: number[] = [];
        const failures: Record<string, string> = {};
        ctx.log(`shutdown, ${config.name}: ${RUNS} runs`);
        const samples = await series(
          RUNS,
          {
            stdout: guarded("stdout", failures, async () => {
              model.reset();
              const run = await runProcess([product, "-p", "hi"], { cwd: ws.cwd, env: ws.env });
              const replied = model.lastReply();
              if (run.code !== 0) throw new Error(failureLine(product, run));
              if (run.firstStdoutAt === undefined || replied === undefined) throw new Error("the agent printed no answer");
              if (/failed to start/.test(run.stderr)) throw new Error(run.stderr.split("\n").find((l) => /failed to start/.test(l)));
              fromReply.push(run.exitedAt - replied);
              return run.exitedAt - run.firstStdoutAt;
            }),
          },
          WARMUP,
        );
        const m = medianOrFailure(samples.stdout, failures.stdout);
        if ("failure" in m) {
          rows.push(naRow(figure(config), config.target, m.failure));
          continue;
        }
        const replyToExit = medianOrFailure(fromReply.slice(WARMUP), undefined);
        const second = "value" in replyToExit ? replyToExit.value : NaN;
        rows.push({
          figure: figure(config),
          value: ms(m.value),
          baseline: "none (absolute)",
          ratio: "—",
          target: config.target,
          result: verdict(m.value <= config.limitMs),
        });
        rows.push({
          figure: `shutdown: final model reply → exit, ${config.name}`,
          value: ms(second),
          baseline: "none (absolute)",
          ratio: "—",
          target: config.target,
          result: verdict(second <= config.limitMs),
        });
        notes.push(
          `Shutdown, ${config.name}: answer on stdout → exit ${samples.stdout.map((v) => v.toFixed(1)).join(", ")} ms; final model reply → exit ${fromReply
            .slice(WARMUP)
            .map((v) => v.toFixed(1))
            .join(", ")} ms.`,
        );
      } finally {
        ws.remove();
      }
    }
  } finally {
    model.stop();
  }
  notes.push(`Close grace used for the stubborn target: ${grace.ms} ms (${grace.source}).`);
  return { rows, notes };
}
