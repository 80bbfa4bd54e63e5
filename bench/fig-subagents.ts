/**
 * Figures: subagents. (1) Three Agent calls in one reply, each subagent's model taking 1 s: the
 * wall time from the parent's reply to its next request, against one such subagent in the same
 * series (target: at most 1.2 s for three, not 3 s). (2) A subagent's start: from the parent's
 * reply holding an Agent call to the subagent's first request, against a Read call's reply to the
 * next request, with an MCP server configured that the subagent inherits without a second process
 * (target: at most 5 ms more). Times are taken on the scripted model's side, when requests arrive.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type RecordedRequest, type Step } from "../tests/support/model-server.ts";
import { BUN, FIXTURE_SERVER } from "../tests/support/run.ts";
import { agentWorkspace, failureLine, type BenchContext, type FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, ms, msDelta, naRow, ratio, series, verdict } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 5;
const FAN = "three subagents whose model takes 1 s each, together (parent's reply → its next request)";
const START = "a subagent's start (Agent reply → the subagent's first request), over a Read call's turn-around";
const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");

/** One -p run's timings, taken by the scripted model: the parent's first reply and the next arrivals. */
interface Timed {
  parentReply: number;
  firstSub?: number;
  parentNext?: number;
}

function scripted(firstReply: () => Step, subDelayMs: number) {
  let t: Timed = { parentReply: 0 };
  let parentCalls = 0;
  const step: Step = async (r) => {
    const now = performance.now();
    if (isSub(r)) {
      t.firstSub ??= now;
      if (subDelayMs) await Bun.sleep(subDelayMs);
      return reply(text("report"));
    }
    if (parentCalls++ % 2 === 1) {
      t.parentNext = now;
      return reply(text("done"));
    }
    const out = firstReply();
    t.parentReply = performance.now();
    return out;
  };
  const model = startModelServer(new Array(200).fill(step));
  return {
    model,
    take(): Timed {
      const got = t;
      t = { parentReply: 0 };
      parentCalls = 0;
      model.requests.length = 0;
      return got;
    },
  };
}

const agentCall = (i: number) => toolUse("Agent", { description: `job ${i}`, prompt: "report back", subagent_type: "general-purpose" });

export async function subagentsFigure(ctx: BenchContext): Promise<FigureResult> {
  const { product } = ctx.builds;
  if (!product.path) return { rows: [naRow(FAN, "≤ 1.2 s", product.error ?? "the agent did not build"), naRow(START, "≤ 5 ms", "no build")], notes: [] };
  return { rows: [await fanOut(ctx), await start(ctx)], notes: [] };
}

async function measureRuns(ctx: BenchContext, label: string, variants: Record<string, { first: () => Step; delay: number; pick(t: Timed): number }>) {
  const failures: Record<string, string> = {};
  const measures: Record<string, () => Promise<number>> = {};
  const stops: (() => void)[] = [];
  for (const [name, v] of Object.entries(variants)) {
    const s = scripted(v.first, v.delay);
    const ws = agentWorkspace(s.model.url);
    writeFileSync(join(ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { inherited: { command: BUN, args: [FIXTURE_SERVER] } } }));
    stops.push(() => (s.model.stop(), ws.remove()));
    measures[name] = guarded(name, failures, async () => {
      const argv = [agent(ctx), "-p", "go", "--allowedTools", "Agent"];
      const r = await runProcess(argv, { cwd: ws.cwd, env: { ...ws.env, AGENT_SUBAGENTS: "1" } });
      if (r.code !== 0) throw new Error(failureLine(argv.join(" "), r));
      return v.pick(s.take());
    });
  }
  ctx.log(`subagents: ${RUNS} runs each of ${label}`);
  try {
    const samples = await series(RUNS, measures);
    return Object.fromEntries(Object.keys(variants).map((k) => [k, medianOrFailure(samples[k], failures[k])]));
  } finally {
    for (const stop of stops) stop();
  }
}

const agent = (ctx: BenchContext) => ctx.builds.product.path!;

async function fanOut(ctx: BenchContext) {
  const wall = (t: Timed) => (t.parentNext ?? Number.NaN) - t.parentReply;
  const got = await measureRuns(ctx, "one and three 1 s subagents", {
    one: { first: () => reply(agentCall(1)), delay: 1000, pick: wall },
    three: { first: () => reply(agentCall(1), agentCall(2), agentCall(3)), delay: 1000, pick: wall },
  });
  const { one, three } = got as Record<string, { value: number } | { failure: string }>;
  if ("failure" in three!) return naRow(FAN, "≤ 1.2 s", three.failure);
  if ("failure" in one!) return naRow(FAN, "≤ 1.2 s", one.failure);
  return {
    figure: FAN,
    value: ms(three.value),
    baseline: `${ms(one.value)} (one subagent)`,
    ratio: ratio(three.value, one.value),
    target: "≤ 1.2 s",
    result: verdict(three.value <= 1200),
  };
}

async function start(ctx: BenchContext) {
  const got = await measureRuns(ctx, "an Agent call and a Read call", {
    agent: { first: () => reply(agentCall(1)), delay: 0, pick: (t) => (t.firstSub ?? Number.NaN) - t.parentReply },
    read: { first: () => reply(toolUse("Read", { file_path: ".mcp.json" })), delay: 0, pick: (t) => (t.parentNext ?? Number.NaN) - t.parentReply },
  });
  const { agent: a, read } = got as Record<string, { value: number } | { failure: string }>;
  if ("failure" in a!) return naRow(START, "≤ 5 ms", a.failure);
  if ("failure" in read!) return naRow(START, "≤ 5 ms", read.failure);
  return {
    figure: START,
    value: `${ms(a.value)} (${msDelta(a.value - read.value)})`,
    baseline: `${ms(read.value)} (Read)`,
    ratio: ratio(a.value, read.value),
    target: "≤ 5 ms more",
    result: verdict(a.value - read.value <= 5),
  };
}
