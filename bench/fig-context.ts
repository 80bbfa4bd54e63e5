/**
 * Figures for context and cost (prompt caching and tool search), from the requests the real
 * agent sends to the scripted model:
 * - cacheable share: over a 10-turn -p run with three MCP servers, the share of each request
 *   (turns 2 to 10) that is the previous request's whole prompt, byte-identical, and so readable
 *   from the cache behind its breakpoint; baseline: the same run with --no-cache (nothing marked).
 * - first request with the 418 survey tools (claude-haiku-4-5, whose 200K window they pass 10 % of)
 *   against the same run with ENABLE_TOOL_SEARCH=false; and whether the tool ToolSearch found
 *   was called on the next turn.
 * - cost of the 10-turn run from the price table, with and without caching, billing each request
 *   as the API does: the part behind the previous request's prompt at the cache-read rate, the rest
 *   at the cache-write rate (all of it is behind the newest breakpoint); uncached, all at the input
 *   rate. Tokens are estimated as 4 bytes each; the API's minimum cacheable length is ignored.
 */
import { join } from "node:path";
import { costUsd } from "../lib/agent/model/usage.ts";
import { reply, startModelServer, text, toolUse, type RecordedRequest, type Step } from "../tests/support/model-server.ts";
import { BUN, fixtureServer, ROOT, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, failureLine, type BenchContext, type FigureResult } from "./figure.ts";
import { naRow, ratio, verdict, type Row } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const MODEL = "claude-sonnet-4-6";
const OUTPUT_TOKENS = 50;
const SHARE = "cacheable share of input, turns 2–10 (10-turn run, 3 servers)";
const FIRST = "first request with the 418 survey tools (bytes)";
const COST = "cost of the 10-turn run (price table)";

/** The prompt as the cache sees it: tools, system, messages, without the breakpoints themselves. */
function prompt(req: RecordedRequest, messages = req.body.messages.length): string {
  const strip = (v: unknown) => JSON.stringify(v, (k, x) => (k === "cache_control" ? undefined : x));
  return strip(req.body.tools ?? []) + strip(req.body.system ?? "") + strip(req.body.messages.slice(0, messages));
}

/** Bytes of each request readable from the previous one's cache entry, and each request's size. */
function readable(requests: RecordedRequest[]): { read: number[]; total: number[] } {
  const read: number[] = [];
  const total: number[] = [];
  requests.forEach((req, i) => {
    total.push(prompt(req).length);
    const before = requests[i - 1];
    const marked = before ? JSON.stringify(before.body).includes("cache_control") : false;
    const prefix = before ? prompt(req, before.body.messages.length) : "";
    read.push(before && marked && prefix === prompt(before) ? prefix.length : 0);
  });
  return { read, total };
}

function tenTurns(): Step[] {
  const calls = [
    toolUse("mcp__a__echo", { text: "a".repeat(2000) }),
    toolUse("mcp__b__add", { a: 1, b: 2 }),
    toolUse("mcp__c__echo", { text: "c".repeat(2000) }),
    toolUse("Glob", { pattern: "*" }),
  ];
  const steps: Step[] = Array.from(
    { length: 9 },
    (_, i) => ({ ...(reply(calls[i % calls.length]!) as object), usage: { input_tokens: 1, output_tokens: OUTPUT_TOKENS } }) as Step,
  );
  steps.push({ ...(reply(text("done")) as object), usage: { input_tokens: 1, output_tokens: OUTPUT_TOKENS } } as Step);
  return steps;
}

async function run(agent: string, script: Step[], servers: Record<string, unknown>, args: string[], env: Record<string, string> = {}) {
  const model = startModelServer(script);
  const ws = agentWorkspace(model.url);
  try {
    writeMcpConfig(ws.cwd, servers);
    const r = await runProcess([agent, "-p", "go", ...args], { cwd: ws.cwd, env: { ...ws.env, ...env } });
    if (r.code !== 0) throw new Error(failureLine("agent", r));
    return { requests: [...model.requests], stdout: r.stdout };
  } finally {
    model.stop();
    ws.remove();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const usd = (x: number) => `$${x.toFixed(4)}`;

export async function contextFigure(ctx: BenchContext): Promise<FigureResult> {
  const agent = ctx.builds.product.path;
  if (!agent) {
    const reason = ctx.builds.product.error ?? "not built";
    return { rows: [naRow(SHARE, "≥ 90 %", reason), naRow(FIRST, "≤ 10 % of without", reason), naRow(COST, "≤ 30 % of uncached", reason)], notes: [] };
  }
  const rows: Row[] = [];
  const notes: string[] = [];
  const three = { a: fixtureServer(), b: fixtureServer(), c: fixtureServer() };
  ctx.log("context: 10-turn run with caching, then with --no-cache");
  const cached = await run(agent, tenTurns(), three, ["--model", MODEL]);
  const uncached = await run(agent, tenTurns(), three, ["--model", MODEL, "--no-cache"]);
  const c = readable(cached.requests);
  const u = readable(uncached.requests);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const share = sum(c.read.slice(1)) / sum(c.total.slice(1));
  const baseShare = sum(u.read.slice(1)) / sum(u.total.slice(1));
  rows.push({ figure: SHARE, value: pct(share), baseline: `${pct(baseShare)} (--no-cache)`, ratio: "—", target: "≥ 90 %", result: verdict(share >= 0.9) });

  const tokens = (bytes: number) => Math.ceil(bytes / 4);
  let withCache = 0;
  let without = 0;
  c.total.forEach((total, i) => {
    const read = tokens(c.read[i]!);
    const write = tokens(total) - read;
    withCache += costUsd(MODEL, { input_tokens: 0, output_tokens: OUTPUT_TOKENS, cache_creation_input_tokens: write, cache_read_input_tokens: read })!;
  });
  for (const total of u.total)
    without += costUsd(MODEL, { input_tokens: tokens(total), output_tokens: OUTPUT_TOKENS, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })!;
  rows.push({
    figure: COST,
    value: usd(withCache),
    baseline: `${usd(without)} (uncached)`,
    ratio: ratio(withCache, without),
    target: "≤ 30 % of uncached",
    result: verdict(withCache <= 0.3 * without),
  });
  notes.push(
    `Context: the 10-turn run sends ${c.total.length} requests of ${c.total[0]} to ${c.total.at(-1)} bytes; turns 2–10 read ${pct(share)} of their prompt from the previous turn's cache entry. Cost on ${MODEL} at 4 bytes a token, ${OUTPUT_TOKENS} output tokens a turn.`,
  );

  ctx.log("context: first request with the 418 survey tools, with and without tool search");
  const survey = join(ROOT, "fixtures/servers/survey-server.ts");
  const servers = {
    github: { command: BUN, args: [survey, "--only", "github"] },
    playwright: { command: BUN, args: [survey, "--only", "playwright"] },
    rest: { command: BUN, args: [survey, "--except", "github,playwright"] },
  };
  const searchScript = (): Step[] => [
    reply(toolUse("ToolSearch", { query: "take a screenshot of the page" })),
    reply(toolUse("mcp__playwright__browser_take_screenshot", {})),
    reply(text("done")),
  ];
  const withSearch = await run(agent, searchScript(), servers, ["--model", "claude-haiku-4-5"]);
  const plain = await run(agent, [reply(text("done"))], servers, ["--model", "claude-haiku-4-5"], { ENABLE_TOOL_SEARCH: "false" });
  const small = withSearch.requests[0]!.raw.length;
  const full = plain.requests[0]!.raw.length;
  const third = withSearch.requests[2];
  const called = JSON.stringify(third?.body.messages.at(-1) ?? "").includes("ran playwright/browser_take_screenshot");
  rows.push({
    figure: FIRST,
    value: String(small),
    baseline: `${full} (ENABLE_TOOL_SEARCH=false)`,
    ratio: ratio(small, full),
    target: "≤ 10 % of without, found tool callable",
    result: verdict(small <= 0.1 * full && called),
  });
  notes.push(
    `Tool search: ${plain.requests[0]!.body.tools.length} tool definitions without it; with it the first request carries ${withSearch.requests[0]!.body.tools.length}, and the screenshot tool ToolSearch found was ${called ? "called on the next turn" : "NOT called"}.`,
  );
  return { rows, notes };
}
