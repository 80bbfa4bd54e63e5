/**
 * MCP server configuration: `<cwd>/.mcp.json` and `--mcp-config` values, validated entry by entry,
 * with `${VAR}` / `${VAR:-default}` expansion (the Claude Code `.mcp.json` conventions).
 * Bad input never throws: it becomes a warning line and the offending file or entry is skipped.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type OAuthConfig, parseOAuthConfig } from "./auth/config.ts";
import { jsonErrorOffset, lineColumn } from "./json-position.ts";
import { describeType, isObject } from "../shared/values.ts";
import { readJsonFile, readScope, type Scope, SCOPES, scopeLabel, scopePaths, valueAt } from "./scopes.ts";
import { type ServerOptions, validateOptions } from "./server-options.ts";

/** Where a server's winning entry came from, and the weaker entries of the same name it shadows. */
export interface ServerOrigin {
  /** "dynamic": `--mcp-config`. */
  scope: Scope | "dynamic";
  /** The file (absolute), or "--mcp-config" for inline JSON. */
  file: string;
  shadows?: { scope: Scope | "dynamic"; file: string }[];
}

/** What every entry has, whatever its transport. */
export interface ServerBase extends ServerOptions {
  name: string;
  /** Set by `loadMcpConfig`; absent for configs built in code. */
  origin?: ServerOrigin;
}

/** One stdio server to spawn (basic/transports#stdio). `env` is added to the inherited environment by the transport. */
export interface StdioServerConfig extends ServerBase {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The server's working directory (absolute, `cwd` of the entry resolved against the project); absent → the project. */
  cwd?: string;
  /** `command` and `args` as written, before `${VAR}` expansion: what to show a person (values may be secrets). */
  written?: { command: string; args: string[] };
}

/** A server inside the host program (the Agent SDK's `createSdkMcpServer`), reached over its control channel. */
export interface SdkServerConfig extends ServerBase {
  type: "sdk";
}

/**
 * One remote server (basic/transports): `http` is Streamable HTTP (with the legacy fallback), `sse`
 * the 2024-11-05 HTTP+SSE transport. `headers` go on every request to the server's origin.
 */
export interface HttpServerConfig extends ServerBase {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
  /** The entry's `oauth` block (basic/authorization): pre-registered client, callback port, scopes, grant. */
  oauth?: OAuthConfig;
  /** `url` and `headers` as written, before `${VAR}` expansion: what to show a person (values may be secrets). */
  written?: { url: string; headers: Record<string, string> };
}

/**
 * One configured server, discriminated by `type` (the transport). Each member has `name`; a new
 * transport adds a member here, a branch in `validateEntry` and a case in transports/factory.ts.
 */
export type ServerConfig = StdioServerConfig | HttpServerConfig | SdkServerConfig;

/** The result of validating one entry: the server and the `${VAR}`s that had no value, or why it was skipped. */
type EntryResult = { server: ServerConfig; unset: string[] } | string;

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
    if (typeof result === "string") warnings.push(`${label}: server "${name}": ${result}`);
    else {
      out.push(result.server);
      if (result.unset.length) {
        const vars = result.unset.join(", ");
        warnings.push(`${label}: server "${name}": environment variable${result.unset.length > 1 ? "s" : ""} ${vars} not set (left as written)`);
      }
    }
  }
  return out;
}

/**
 * Dispatches on `type` (as in Claude Code: absent means stdio, or http when the entry has a `url`
 * and no `command`); each transport validates its own fields, then the per-server options.
 */
function validateEntry(name: string, entry: unknown, env: Record<string, string | undefined>, project: string): EntryResult {
  if (name.trim() === "") return "empty server name; skipped";
  if (!isObject(entry)) return 'expected an object with "command" or "url"; skipped';
  const type: unknown = entry.type ?? (entry.command === undefined && entry.url !== undefined ? "http" : "stdio");
  switch (type) {
    case "stdio":
      return withOptions(entry, validateStdio(name, entry, env, project));
    case "http":
    case "sse":
      return withOptions(entry, validateRemote(name, type, entry, env));
    case "sdk":
      return { server: { type: "sdk", name }, unset: [] };
    default:
      return `"type" is ${JSON.stringify(entry.type)}: not a transport (expected "stdio", "http" or "sse"); skipped`;
  }
}

/** The per-server options of any transport added to a valid entry; a bad option skips the entry. */
function withOptions(entry: Record<string, unknown>, result: EntryResult): EntryResult {
  if (typeof result === "string") return result;
  const options = validateOptions(entry);
  if (typeof options === "string") return `${options}; skipped`;
  Object.assign(result.server, options);
  return result;
}

function validateRemote(name: string, type: "http" | "sse", entry: Record<string, unknown>, env: Record<string, string | undefined>): EntryResult {
  if (typeof entry.url !== "string" || entry.url.trim() === "") return '"url" must be a non-empty string; skipped';
  const headersIn = entry.headers ?? {};
  if (!isObject(headersIn)) return '"headers" must be an object of strings; skipped';
  for (const [key, value] of Object.entries(headersIn)) {
    if (typeof value !== "string") return `"headers" value for ${key} must be a string (is ${describeType(value)}); skipped`;
  }
  const unset = new Set<string>();
  const expand = (s: string) => expandVars(s, env, unset);
  const url = expand(entry.url.trim());
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Shown as written: the expanded URL may hold a secret.
    return `"url" is not a valid URL (${JSON.stringify(entry.url.slice(0, 200))}); skipped`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return `"url" must be http:// or https:// (is ${parsed.protocol}); skipped`;
  const headers = Object.fromEntries(Object.entries(headersIn as Record<string, string>).map(([k, v]) => [k, expand(v)]));
  const oauth = entry.oauth === undefined ? undefined : parseOAuthConfig(entry.oauth, expand);
  if (typeof oauth === "string") return `${oauth}; skipped`;
  const server: HttpServerConfig = {
    type,
    name,
    url,
    headers,
    ...(oauth ? { oauth } : {}),
    written: { url: entry.url, headers: headersIn as Record<string, string> },
  };
  return { server, unset: [...unset] };
}

function validateStdio(name: string, entry: Record<string, unknown>, env: Record<string, string | undefined>, project: string): EntryResult {
  if (typeof entry.command !== "string" || entry.command.trim() === "") return '"command" must be a non-empty string; skipped';
  const args = entry.args ?? [];
  if (!Array.isArray(args)) return '"args" must be an array of strings; skipped';
  const badArg = args.findIndex((a) => typeof a !== "string");
  if (badArg !== -1) return `"args" must be an array of strings (args[${badArg}] is ${describeType(args[badArg])}); skipped`;
  const envIn = entry.env ?? {};
  if (!isObject(envIn)) return '"env" must be an object of strings; skipped';
  for (const [key, value] of Object.entries(envIn)) {
    if (typeof value !== "string") return `"env" value for ${key} must be a string (is ${describeType(value)}); skipped`;
  }
  if (entry.cwd !== undefined && (typeof entry.cwd !== "string" || entry.cwd === ""))
    return '"cwd" must be a non-empty string (a folder, relative to the project); skipped';

  const unset = new Set<string>();
  const expand = (s: string) => expandVars(s, env, unset);
  const server: StdioServerConfig = {
    type: "stdio",
    name,
    command: expand(entry.command),
    args: (args as string[]).map(expand),
    env: Object.fromEntries(Object.entries(envIn as Record<string, string>).map(([k, v]) => [k, expand(v)])),
    written: { command: entry.command, args: args as string[] },
  };
  if (typeof entry.cwd === "string") server.cwd = resolve(project, expand(entry.cwd));
  return { server, unset: [...unset] };
}

const VAR_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in `s` from `env` (Claude Code semantics: the default
 * applies only when VAR is unset, an empty value is kept). An unset VAR without a default is left
 * as written and its name added to `unset`.
 */
export function expandVars(s: string, env: Record<string, string | undefined>, unset: Set<string>): string {
  return s.replace(VAR_REF, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    unset.add(name);
    return whole;
  });
}
