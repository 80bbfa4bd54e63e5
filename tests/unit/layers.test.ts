/**
 * Imports flow one way: cli → agent → (tools | mcp) → (files | process) → shared, and lib/mcp
 * knows nothing of the agent. Every static and lazy import (types included) under lib/ is checked.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "../support/run.ts";

/** Height of each top-level folder of lib/: a file may import only from lower folders or its own. */
const RANK: Record<string, number> = { shared: 0, files: 1, process: 1, tools: 2, mcp: 2, agent: 3, cli: 4 };

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

/** The top-level folder of a path under lib/ ("mcp" for lib/mcp/transports/stdio.ts), or undefined outside lib/. */
function layerOf(path: string): string | undefined {
  const rel = relative(join(ROOT, "lib"), path);
  return rel.startsWith("..") ? undefined : rel.split("/")[0];
}

/** Every import that goes up or sideways, as "lib/a/x.ts → lib/b/y.ts". */
function violations(files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of files) {
    const from = layerOf(path);
    if (from === undefined || !(from in RANK)) continue;
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (!spec.startsWith(".")) continue;
      const target = resolve(dirname(path), spec);
      const to = layerOf(target);
      if (to === undefined || to === from) continue;
      if (!(to in RANK) || RANK[to]! >= RANK[from]!) found.push(`${relative(ROOT, path)} → ${relative(ROOT, target)}`);
    }
  }
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
    for (const [path, text] of libFiles()) {
      if (layerOf(path) !== "mcp") continue;
      for (const m of text.matchAll(IMPORT)) {
        const spec = m[1] ?? m[2]!;
        if (spec.startsWith(".")) reached.add(layerOf(resolve(dirname(path), spec)) ?? "outside lib");
      }
    }
    expect(reached.has("mcp")).toBe(true);
    expect([...reached].filter((layer) => ["agent", "tools", "cli"].includes(layer))).toEqual([]);
  });

  test("the check sees upward, sideways and lazy imports", () => {
    const at = (p: string) => join(ROOT, p);
    const planted = new Map([
      [at("lib/mcp/registry.ts"), 'import type { Tool } from "../tools/tool.ts";'],
      [at("lib/tools/read.ts"), 'const x = await import("../agent/loop.ts");'],
      [at("lib/files/image.ts"), 'export { y } from "../process/group.ts";'],
      [at("lib/cli/print.ts"), 'import { runLoop } from "../agent/loop.ts";\nimport { isObject } from "../shared/values.ts";'],
    ]);
    expect(violations(planted)).toEqual([
      "lib/mcp/registry.ts → lib/tools/tool.ts",
      "lib/tools/read.ts → lib/agent/loop.ts",
      "lib/files/image.ts → lib/process/group.ts",
    ]);
  });
});
