/**
 * MCP server configuration: `<cwd>/.mcp.json` and `--mcp-config` values, validated entry by entry,
 * with `${VAR}` / `${VAR:-default}` expansion (the Claude Code `.mcp.json` conventions).
 * Bad input never throws: it becomes a warning line and the offending file or entry is skipped.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { jsonErrorOffset, lineColumn } from "../../files/json-position.ts";
import { visibleText } from "../../shared/terminal-text.ts";
import { isObject } from "../../shared/values.ts";
import { readJsonFile, readScope, SCOPES, scopeLabel, scopePaths, valueAt } from "./scopes.ts";
import { validateEntry } from "./entries.ts";
import type { ServerConfig, ServerOrigin } from "./server-config.ts";

export type { HttpServerConfig, SdkServerConfig, ServerBase, ServerConfig, ServerOrigin, StdioServerConfig } from "./server-config.ts";

/** The result of validating one entry: the server and the `${VAR}`s that had no value, or why it was skipped. */

export interface LoadMcpConfigOptions {
  /** The project: holds `.mcp.json`, keys the local scope; relative `--mcp-config` paths resolve against it. */
  cwd: string;
  /** `--mcp-config` values in command-line order: each a file path or a JSON object text. */
  extra?: string[];
  /** `--strict-mcp-config`: ignore every scope's file, use only `extra`. */
  strict?: boolean;
  /** Variables for `${VAR}` expansion; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** The file of the user and local scopes; default `userConfigFile()` (scopes.ts); null reads neither scope. */
  userFile?: string | null;
}

/**
 * Loads and merges MCP server configs, weakest first: the user scope, the project's `.mcp.json`,
 * the local scope (unless `strict`), then each `extra` in order; a later definition of a server
 * name replaces an earlier one, and remembers what it shadows (scopes.ts has the files and keys).
 * Returns the valid servers and one ready-to-print line per problem (a missing scope file is not
 * a problem); `unusableExtra` (only when some) repeats the lines of `extra` values that gave no servers object at
 * all, which callers treat as a usage error. Warnings name the file, the server and the field, never an environment value.
 */
export function loadMcpConfig(opts: LoadMcpConfigOptions): { servers: ServerConfig[]; warnings: string[]; unusableExtra?: string[] } {
  const env = opts.env ?? process.env;
  const warnings: string[] = [];
  const unusableExtra: string[] = [];
  const merged = new Map<string, ServerConfig>();
  const sources: { label: string; origin: ServerOrigin; servers: unknown }[] = [];
  if (!opts.strict) sources.push(...scopeSources(opts, warnings));
  for (const value of opts.extra ?? []) {
    const inline = value.trimStart().startsWith("{");
    const label = inline ? "MCP config (inline JSON)" : `MCP config ${value}`;
    const text = inline ? value : readSource(resolve(opts.cwd, value), label, false, warnings);
    const doc = text === undefined ? undefined : parseText(label, text, warnings);
    const servers = doc === undefined ? undefined : serversOf(label, doc, warnings);
    if (!servers) unusableExtra.push(warnings.at(-1) ?? `${label}: not usable`);
    if (servers) sources.push({ label, origin: { scope: "dynamic", file: inline ? "--mcp-config" : resolve(opts.cwd, value) }, servers });
  }
  for (const { label, origin, servers } of sources) {
    for (const server of parseServers(label, servers as Record<string, unknown>, env, opts.cwd, warnings)) {
      const earlier = merged.get(server.name)?.origin;
      server.origin = earlier ? { ...origin, shadows: [{ scope: earlier.scope, file: earlier.file }, ...(earlier.shadows ?? [])] } : origin;
      merged.delete(server.name); // Re-insert so the listing order follows the winning definition.
      merged.set(server.name, server);
    }
  }
  return { servers: [...merged.values()], warnings, ...(unusableExtra.length ? { unusableExtra } : {}) };
}

/** The three scopes' `mcpServers`, weakest first, each file read once; a file's problem is one warning. */
function scopeSources(opts: LoadMcpConfigOptions, warnings: string[]): { label: string; origin: ServerOrigin; servers: unknown }[] {
  const paths = scopePaths(opts.cwd);
  if (opts.userFile) paths.userFile = opts.userFile;
  const out: { label: string; origin: ServerOrigin; servers: unknown }[] = [];
  const userFile = opts.userFile === null ? undefined : readJsonFile(paths.userFile);
  if (userFile?.error) warnings.push(`${scopeLabel("user", paths)}: ${userFile.error}`);
  for (const scope of [...SCOPES].reverse()) {
    const file = scope === "project" ? readJsonFile(paths.projectFile) : userFile;
    if (!file) continue;
    // `.mcp.json` keeps its short name in warnings: it is the file people edit by hand.
    const label = scope === "project" ? ".mcp.json" : scopeLabel(scope, paths);
    const read = readScope(scope, paths, file);
    if (read.error && scope === "project") warnings.push(`${label}: ${read.error}`);
    else if (read.error && file.doc !== undefined) warnings.push(`${label}: ${read.error}`);
    else if (scope === "project" && file.doc !== undefined && valueAt(file.doc, ["mcpServers"]) === undefined) {
      warnings.push(`${label}: expected an object {"mcpServers": {"<name>": {"command": ...}}}`);
    }
    out.push({ label, origin: { scope, file: file.path }, servers: read.servers });
  }
  return out;
}

function readSource(path: string, label: string, optional: boolean, warnings: string[]): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      if (!optional) warnings.push(`${label}: file not found`);
    } else {
      warnings.push(`${label}: cannot read (${code ?? (err as Error).message})`);
    }
    return undefined;
  }
}

function parseText(label: string, rawText: string, warnings: string[]): unknown {
  const text = rawText.replace(/^\uFEFF/, ""); // Editors on Windows add a BOM that JSON.parse rejects.
  try {
    return JSON.parse(text);
  } catch (err) {
    const offset = jsonErrorOffset(text);
    const pos = offset >= 0 ? lineColumn(text, offset) : undefined;
    const where = pos ? ` at line ${pos.line}:${pos.column}` : "";
    const reason = (err as Error).message.replace(/^JSON Parse error: /, "");
    warnings.push(`${label}: invalid JSON${where}: ${reason}`);
    return undefined;
  }
}

function serversOf(label: string, doc: unknown, warnings: string[]): Record<string, unknown> | undefined {
  const servers = isObject(doc) ? doc.mcpServers : undefined;
  if (isObject(servers)) return servers;
  warnings.push(`${label}: expected an object {"mcpServers": {"<name>": {"command": ...}}}`);
  return undefined;
}

function parseServers(
  label: string,
  servers: Record<string, unknown>,
  env: Record<string, string | undefined>,
  cwd: string,
  warnings: string[],
): ServerConfig[] {
  const out: ServerConfig[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const result = validateEntry(name, entry, env, cwd);
    // A repository writes these names; a warning shows their codes written out, as `mcp list` does.
    const shown = visibleText(name);
    if (typeof result === "string") warnings.push(`${label}: server "${shown}": ${visibleText(result)}`);
    else {
      out.push(result.server);
      if (result.unset.length) {
        const vars = result.unset.join(", ");
        warnings.push(`${label}: server "${shown}": environment variable${result.unset.length > 1 ? "s" : ""} ${visibleText(vars)} not set (left as written)`);
      }
    }
  }
  return out;
}
