/**
 * Figure: Bash permission rules on the shell grammar. One decision (median over a mix of compound,
 * wrapped, redirecting and substituted commands, with Bash, Read and Edit rules) once the grammar
 * is loaded; and the grammar's load in a fresh process (bench/grammar-load.ts), paid only by runs
 * whose Bash calls meet such rules, against `-p`'s own launch → first model request.
 */
import { join } from "node:path";
import { agentWorkspace, failureLine, timedModel, type BenchContext, type FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio, verdict } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const DECISIONS = 5000;
const LOADS = 5;
const RULE_TARGET = "≤ 1 ms a call";
const LOAD_TARGET = "reported";

const COMMANDS = [
  "npm test 2>&1 | tee log.txt",
  "git status && echo done > out.txt",
  "timeout --signal KILL 5 rm -rf build",
  "env -S 'rm -f x' && cat secrets/key.txt",
  'for f in *.ts; do echo "$f" >> list.txt; done',
  "X=rm; $X -f victim.txt",
  "cat <<EOF > notes.md\n$(date)\nEOF",
  "sudo --user root make install",
];

export async function bashRulesFigure(ctx: BenchContext): Promise<FigureResult> {
  const [{ loadBashGrammar }, rules] = await Promise.all([import("../lib/agent/permissions/bash/grammar.ts"), import("../lib/agent/permissions/rules.ts")]);
  const file = { scope: "project" as const, path: "/p/.claude/settings.json", root: "/p", doc: {} };
  const texts = [
    ...["Bash(rm:*)", "Bash(git push:*)", "Read(./secrets/**)", "Edit(./protected/**)"].map((text) => ({ text, behavior: "deny" as const, file })),
    ...["Bash(npm test:*)", "Bash(git status:*)", "Bash(echo:*)", "Bash(cat:*)"].map((text) => ({ text, behavior: "allow" as const, file })),
  ];
  const c = { cwd: "/p", home: "/home/u", warn: () => {} };
  const engine = new rules.PermissionRules(rules.compileRules(texts, c), c);
  await loadBashGrammar();
  ctx.log(`bash rules: ${DECISIONS} decisions, then ${LOADS} grammar loads and -p starts`);
  const decisions: number[] = [];
  for (let i = 0; i < DECISIONS; i++) {
    const t = performance.now();
    engine.decide("Bash", { command: COMMANDS[i % COMMANDS.length]! });
    decisions.push(performance.now() - t);
  }
  const decideMs = median(decisions.slice(500));
  const rows = [
    {
      figure: `bash rules: one decision on the shell grammar, ${texts.length} rules (median of ${DECISIONS - 500})`,
      value: `${(decideMs * 1000).toFixed(1)} µs`,
      baseline: "—",
      ratio: "—",
      target: RULE_TARGET,
      result: verdict(decideMs <= 1),
    },
  ];
  const product = ctx.builds.product;
  if (!product.path) return { rows: [...rows, naRow("bash rules: grammar load vs -p start", LOAD_TARGET, product.error ?? "not built")], notes: [] };
  const loads: number[] = [];
  const starts: number[] = [];
  const model = timedModel("done");
  const ws = agentWorkspace(model.url);
  try {
    for (let i = 0; i < LOADS; i++) {
      const load = await runProcess([process.execPath, join(import.meta.dir, "grammar-load.ts")], { cwd: ws.cwd, env: process.env });
      if (load.code !== 0) throw new Error(failureLine("grammar-load", load));
      loads.push(Number(load.stdout.trim()));
      model.reset();
      const run = await runProcess([product.path, "-p", "hi"], { cwd: ws.cwd, env: ws.env });
      const arrival = model.lastArrival();
      if (run.code !== 0 || arrival === undefined) throw new Error(failureLine("agent -p", run));
      starts.push(arrival - run.spawnedAt);
    }
  } catch (err) {
    return { rows: [...rows, naRow("bash rules: grammar load vs -p start", LOAD_TARGET, (err as Error).message)], notes: [] };
  } finally {
    model.stop();
    ws.remove();
  }
  const loadMs = median(loads);
  const startMs = median(starts);
  rows.push({
    figure: `bash rules: shell grammar load in a fresh process (median of ${LOADS}), against -p launch → first request`,
    value: ms(loadMs),
    baseline: `${ms(startMs)} (-p start)`,
    ratio: ratio(loadMs, startMs),
    target: LOAD_TARGET,
    result: "paid only when a Bash call meets a Bash or path rule",
  });
  return { rows, notes: [] };
}
