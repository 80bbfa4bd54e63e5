/**
 * Figure: the settings engine in-process. Loading: RunSettings.load over a project with all four
 * files (user, project, local, --settings; 200 rules and 12 hooks in all), the median of 1,000
 * loads, against reading and JSON.parse-ing the same files. Rules: one permission decision with
 * those 200 rules, the median over a mix of Bash (compound, nested), Read and MCP calls.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../tests/support/run.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio, verdict } from "./measure.ts";

const LOADS = 1000;
const DECISIONS = 5000;
const LOAD_TARGET = "≤ 2 ms";
const RULE_TARGET = "≤ 1 ms a call";

/** 50 rules per file in Claude Code's shapes: Bash prefixes and globs, Read/Edit paths, MCP names. */
function rulesFor(file: string): { allow: string[]; ask: string[]; deny: string[] } {
  const bash = Array.from({ length: 20 }, (_, i) => `Bash(tool${i}-${file} run:*)`);
  const paths = Array.from({ length: 15 }, (_, i) => (i % 2 ? `Read(./${file}/secret${i}/**)` : `Edit(~/${file}/notes${i}/*.md)`));
  const mcp = Array.from({ length: 15 }, (_, i) => (i % 3 ? `mcp__srv${i}__tool${i}` : `mcp__srv${i}__*`));
  return {
    deny: bash.slice(0, 10).concat(paths.slice(0, 8)),
    ask: mcp.slice(0, 7).concat(bash.slice(10, 14)),
    allow: [...bash.slice(14), ...paths.slice(8), ...mcp.slice(7)],
  };
}

function writePlace(): { cwd: string; config: string; flag: string; files: string[] } {
  const root = tempDir("agent-bench-settings-");
  const cwd = join(root, "project");
  const config = join(root, "config");
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  mkdirSync(config, { recursive: true });
  const hooks = {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }],
    PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "fmt" }] }],
    Stop: [{ hooks: [{ type: "command", command: "true" }] }],
  };
  const files = [join(config, "settings.json"), join(cwd, ".claude", "settings.json"), join(cwd, ".claude", "settings.local.json"), join(root, "flag.json")];
  files.forEach((path, i) => {
    writeFileSync(
      path,
      JSON.stringify({ model: "claude-sonnet-4-6", env: { [`VAR_${i}`]: "x" }, permissions: rulesFor(`f${i}`), hooks, cleanupPeriodDays: 30 }, null, 2),
    );
  });
  // Trusted, so every file's allow rules count (the larger case).
  writeFileSync(join(config, ".claude.json"), JSON.stringify({ projects: { [cwd]: { hasTrustDialogAccepted: true } } }));
  return { cwd, config, flag: files[3]!, files };
}

export async function settingsFigure(ctx: BenchContext): Promise<FigureResult> {
  const engine = await import("../lib/agent/policy/run-settings.ts").catch((e: Error) => e);
  if (engine instanceof Error)
    return {
      rows: [naRow("settings: load all files", LOAD_TARGET, engine.message), naRow("settings: one rule decision (200 rules)", RULE_TARGET, engine.message)],
      notes: [],
    };
  const place = writePlace();
  const env = { CLAUDE_CONFIG_DIR: place.config, HOME: place.config };
  const load = () => engine.RunSettings.load({ cwd: place.cwd, env, flag: place.flag, warn: () => {}, managedDir: null });
  ctx.log(`settings: ${LOADS} loads of 4 files, then ${DECISIONS} rule decisions`);
  const loads: number[] = [];
  const parses: number[] = [];
  for (let i = 0; i < LOADS + 50; i++) {
    let t = performance.now();
    load();
    const a = performance.now() - t;
    t = performance.now();
    for (const f of place.files) JSON.parse(readFileSync(f, "utf8"));
    const b = performance.now() - t;
    if (i >= 50) loads.push(a), parses.push(b);
  }
  const settings = load();
  const count = settings.rules.size;
  const calls: [string, Record<string, unknown>, { server: string; tool: string } | undefined][] = [
    ["Bash", { command: "tool3-f1 run --fast && echo done | tee log" }, undefined],
    ["Bash", { command: "FOO=1 tool18-f2 run $(date) ; tool19-f2 run x" }, undefined],
    ["Bash", { command: "npm test" }, undefined],
    ["Read", { file_path: join(place.cwd, "f1/secret5/deep/key.txt") }, undefined],
    ["Edit", { file_path: join(place.cwd, "src/main.ts") }, undefined],
    ["mcp__srv4__tool4", {}, { server: "srv4", tool: "tool4" }],
    ["mcp__other__x", {}, { server: "other", tool: "x" }],
  ];
  const decisions: number[] = [];
  for (let i = 0; i < DECISIONS; i++) {
    const [name, input, route] = calls[i % calls.length]!;
    const t = performance.now();
    settings.rules.decide(name, input, route);
    decisions.push(performance.now() - t);
  }
  const loadMs = median(loads);
  const parseMs = median(parses);
  const decideMs = median(decisions.slice(500));
  const worst = Math.max(...decisions.slice(500));
  return {
    rows: [
      {
        figure: `settings: load 4 files (${count} rules, ${settings.hooks.length} hooks), median of ${LOADS}`,
        value: ms(loadMs),
        baseline: `${ms(parseMs)} (read + JSON.parse)`,
        ratio: ratio(loadMs, parseMs),
        target: LOAD_TARGET,
        result: verdict(loadMs <= 2),
      },
      {
        figure: `settings: one permission decision, ${count} rules (median of ${DECISIONS - 500})`,
        value: `${(decideMs * 1000).toFixed(1)} µs`,
        baseline: "—",
        ratio: "—",
        target: RULE_TARGET,
        result: verdict(decideMs <= 1),
      },
    ],
    notes: [
      `Settings rule decisions: the slowest of ${DECISIONS - 500} was ${ms(worst)}; the mix is compound and nested Bash commands, Read/Edit paths and MCP names.`,
    ],
  };
}
