/**
 * The shape of lib/, checked on every file (static and lazy imports, types included):
 * - imports flow one way: cli → agent → (tools | mcp) → sandbox → (files | process) → shared;
 * - inside lib/mcp and lib/cli, folders have an order of their own (below), and siblings never import each other;
 * - other folders reach lib/mcp only through its public modules (MCP_PUBLIC): no barrel file, so the
 *   lazy imports of the HTTP transports and OAuth stay lazy;
 * - no import circle anywhere;
 * - a folder holds at most about 25 source files, and no group of files sharing a name prefix.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { ROOT } from "../support/run.ts";

/** Height of each top-level folder of lib/: a file may import only from lower folders or its own. */
const RANK: Record<string, number> = { shared: 0, files: 1, process: 1, sandbox: 2, tools: 3, mcp: 3, agent: 4, cli: 5 };

/**
 * Heights inside lib/mcp and lib/cli, by the longest matching folder prefix: a file may import from its own
 * folder (and the folders below it) or from a lower height, never from a sibling of the same height.
 */
const INNER: Record<string, Record<string, number>> = {
  mcp: { protocol: 0, "transports/wire": 1, auth: 2, transports: 3, session: 4, config: 4, tasks: 5, registry: 6 },
  cli: { io: 0, ui: 1, oauth: 1, flags: 2, commands: 3, "repl/prompt": 3, print: 4, repl: 4, host: 4 },
  agent: {
    model: 0,
    sessions: 1,
    "tool-search": 1,
    mcp: 1,
    input: 2,
    settings: 2,
    permissions: 3,
    hooks: 3,
    skills: 4,
    policy: 5,
    subagents: 6,
    sandboxing: 6,
  },
};

/** The lib/mcp modules other folders may import: its public face. */
const MCP_PUBLIC = [
  "auth/authorization-code.ts",
  "auth/callback-server.ts",
  "auth/oauth-block.ts",
  "auth/oauth-provider.ts",
  "auth/probe.ts",
  "auth/store.ts",
  "config/approvals.ts",
  "config/client-secrets.ts",
  "config/env.ts",
  "config/load.ts",
  "config/scope-edit.ts",
  "config/scopes.ts",
  "protocol/elicitation.ts",
  "protocol/errors.ts",
  "protocol/protocol.ts",
  "protocol/skills.ts",
  "protocol/uri-template.ts",
  "registry/registry.ts",
  "session/features.ts",
  "tasks/follow.ts",
  "tasks/ops.ts",
  "tasks/task.ts",
  "transports/sdk.ts",
];

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

/** The path under lib/ ("mcp/transports/stdio.ts"), or undefined outside lib/. */
function underLib(path: string): string | undefined {
  const rel = relative(join(ROOT, "lib"), path);
  return rel.startsWith("..") ? undefined : rel;
}

/** The top-level folder of a path under lib/ ("mcp" for lib/mcp/transports/stdio.ts), or undefined outside lib/. */
function layerOf(path: string): string | undefined {
  return underLib(path)?.split("/")[0];
}

/** [the inner folder key, its height] of a file in a ranked top-level folder, by the longest matching prefix. */
function innerOf(path: string): [string, number] | undefined {
  const rel = underLib(path);
  if (!rel) return undefined;
  const [top, ...rest] = rel.split("/");
  const table = INNER[top!];
  if (!table) return undefined;
  const folder = rest.slice(0, -1).join("/");
  let best: [string, number] | undefined;
  for (const [key, height] of Object.entries(table)) {
    if ((folder === key || folder.startsWith(`${key}/`)) && (!best || key.length > best[0].length)) best = [key, height];
  }
  return best;
}

/** Every relative import of every file, resolved: [from, to] pairs. */
function edges(files: Map<string, string>): [string, string][] {
  const out: [string, string][] = [];
  for (const [path, text] of files) {
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith(".")) out.push([path, resolve(dirname(path), spec)]);
    }
  }
  return out;
}

/** Every import that goes up or sideways, as "lib/a/x.ts → lib/b/y.ts". */
function violations(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [path, target] of edges(files)) {
    const from = layerOf(path);
    if (from === undefined || !(from in RANK)) continue;
    const to = layerOf(target);
    const line = `${relative(ROOT, path)} → ${relative(ROOT, target)}`;
    if (to === undefined) continue;
    if (to !== from) {
      if (!(to in RANK) || RANK[to]! >= RANK[from]!) found.push(line);
      continue;
    }
    const a = innerOf(path);
    const b = innerOf(target);
    if (!a || !b || a[0] === b[0]) continue;
    // A folder may use what lies under it (repl → repl/prompt); otherwise only lower heights.
    if (b[0].startsWith(`${a[0]}/`)) continue;
    if (b[1] >= a[1]) found.push(line);
  }
  return found;
}

/** Imports into lib/mcp from outside it that are not on the public list. */
function privateReaches(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [path, target] of edges(files)) {
    if (layerOf(path) === "mcp" || layerOf(target) !== "mcp") continue;
    const inside = relative(join(ROOT, "lib/mcp"), target);
    if (!MCP_PUBLIC.includes(inside)) found.push(`${relative(ROOT, path)} → ${relative(ROOT, target)}`);
  }
  return found;
}

/** One import circle per entry, as its files in order, or none. */
function circles(files: Map<string, string>): string[][] {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges(files)) next.set(from, [...(next.get(from) ?? []), to]);
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === "open") found.push(stack.slice(stack.indexOf(to)).map((f) => relative(ROOT, f)));
      else if (!state.has(to) && files.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files.keys()) if (!state.has(file)) visit(file);
  return found;
}

function libFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const rel of new Bun.Glob("lib/**/*.ts").scanSync({ cwd: ROOT })) files.set(join(ROOT, rel), readFileSync(join(ROOT, rel), "utf8"));
  return files;
}

describe("import direction", () => {
  test("no file under lib/ imports from a folder above it or beside it", () => {
    const files = libFiles();
    expect(files.size).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  test("lib/mcp imports nothing from lib/agent, lib/tools or lib/cli, not even a type", () => {
    const reached = new Set<string>();
    for (const [path, target] of edges(libFiles())) if (layerOf(path) === "mcp") reached.add(layerOf(target) ?? "outside lib");
    expect(reached.has("mcp")).toBe(true);
    expect([...reached].filter((layer) => ["agent", "tools", "cli"].includes(layer))).toEqual([]);
  });

  test("other folders import only lib/mcp's public modules, and every one of those is used", () => {
    const files = libFiles();
    expect(privateReaches(files)).toEqual([]);
    const used = new Set(
      edges(files)
        .filter(([p, t]) => layerOf(p) !== "mcp" && layerOf(t) === "mcp")
        .map(([, t]) => relative(join(ROOT, "lib/mcp"), t)),
    );
    expect(MCP_PUBLIC.filter((m) => !used.has(m))).toEqual([]);
  });

  test("there is no import circle under lib/, type-only imports included", () => {
    expect(circles(libFiles())).toEqual([]);
  });

  test("the checks see upward, sideways, private and circular imports", () => {
    const at = (p: string) => join(ROOT, p);
    const planted = new Map([
      [at("lib/mcp/registry/registry.ts"), 'import type { Tool } from "../../tools/tool.ts";'],
      [at("lib/tools/read.ts"), 'const x = await import("../agent/loop/loop.ts");'],
      [at("lib/files/image.ts"), 'export { y } from "../process/group.ts";'],
      [at("lib/cli/print/print.ts"), 'import { runLoop } from "../../agent/loop/loop.ts";\nimport { isObject } from "../../shared/values.ts";'],
      [at("lib/mcp/transports/stdio.ts"), 'import type { ServerConfig } from "../config/load.ts";'],
      [at("lib/cli/repl/session.ts"), 'import { x } from "../host/host.ts";\nimport { y } from "./prompt/line-editor.ts";'],
      [at("lib/cli/repl/prompt/line-editor.ts"), 'import { z } from "../session.ts";'],
    ]);
    expect(violations(planted)).toEqual([
      "lib/mcp/registry/registry.ts → lib/tools/tool.ts",
      "lib/tools/read.ts → lib/agent/loop/loop.ts",
      "lib/files/image.ts → lib/process/group.ts",
      "lib/mcp/transports/stdio.ts → lib/mcp/config/load.ts",
      "lib/cli/repl/session.ts → lib/cli/host/host.ts",
      "lib/cli/repl/prompt/line-editor.ts → lib/cli/repl/session.ts",
    ]);
    const reaching = new Map([[at("lib/agent/runtime/runtime.ts"), 'import { McpClient } from "../../mcp/session/client.ts";']]);
    expect(privateReaches(reaching)).toEqual(["lib/agent/runtime/runtime.ts → lib/mcp/session/client.ts"]);
    const loop = new Map([
      [at("lib/tools/a.ts"), 'import type { B } from "./b.ts";'],
      [at("lib/tools/b.ts"), 'import { A } from "./a.ts";'],
    ]);
    expect(circles(loop)).toEqual([["lib/tools/a.ts", "lib/tools/b.ts"]]);
  });
});

describe("folders", () => {
  const folders = () => {
    const byFolder = new Map<string, string[]>();
    for (const rel of new Bun.Glob("lib/**/*.ts").scanSync({ cwd: ROOT })) byFolder.set(dirname(rel), [...(byFolder.get(dirname(rel)) ?? []), basename(rel)]);
    return byFolder;
  };

  test("no folder under lib/ holds more than 25 source files", () => {
    const crowded = [...folders()].filter(([, names]) => names.length > 25).map(([folder, names]) => `${folder}: ${names.length}`);
    expect(crowded).toEqual([]);
  });

  test("no folder holds three or more files sharing a name prefix (a folder waiting to be made)", () => {
    const groups: string[] = [];
    for (const [folder, names] of folders()) {
      const count = new Map<string, number>();
      for (const name of names) if (name.includes("-")) count.set(name.split("-")[0]!, (count.get(name.split("-")[0]!) ?? 0) + 1);
      for (const [prefix, n] of count) if (n >= 3) groups.push(`${folder}/${prefix}-* (${n})`);
    }
    expect(groups).toEqual([]);
  });
});
