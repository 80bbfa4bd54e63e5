/**
 * One `mcpServers` entry validated (Claude Code's `.mcp.json` shapes: stdio, `http`, `sse`), with
 * `${VAR}` / `${VAR:-default}` expanded in command, args, env, url and headers. Bad input is the
 * reason as a string, never a throw.
 */
import { resolve } from "node:path";
import { parseOAuthConfig } from "../auth/oauth-block.ts";
import { describeType, isObject } from "../../shared/values.ts";
import { validateOptions } from "./server-options.ts";
import type { HttpServerConfig, ServerConfig, StdioServerConfig } from "./server-config.ts";

/** A valid entry with the variables it named but the environment lacked, or why it is not valid. */
export type EntryResult = { server: ServerConfig; unset: string[] } | string;

/**
 * Dispatches on `type` (as in Claude Code: absent means stdio, or http when the entry has a `url`
 * and no `command`); each transport validates its own fields, then the per-server options.
 */
export function validateEntry(name: string, entry: unknown, env: Record<string, string | undefined>, project: string): EntryResult {
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
