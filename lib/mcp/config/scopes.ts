/**
 * Where MCP server entries live, in Claude Code's files and keys so that a server added by either
 * program is seen by both:
 *
 * | scope   | file                                                   | key                                   |
 * |---------|--------------------------------------------------------|---------------------------------------|
 * | project | `<project>/.mcp.json`                                  | `mcpServers`                          |
 * | user    | `$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json` | `mcpServers`                        |
 * | local   | the user file                                          | `projects["<project>"].mcpServers`    |
 *
 * On a name clash local wins over project, project over user (Claude Code's precedence).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { homeDir, userConfigFile } from "../../shared/claude-home.ts";
import { jsonErrorOffset, lineColumn } from "../../files/json-position.ts";

export type Scope = "local" | "project" | "user";

/** Mode of the user file on every write: its entries may hold secrets (env values, headers). */
export const USER_FILE_MODE = 0o600;

/** Every scope, strongest first: the order a name clash is decided in. */
export const SCOPES: readonly Scope[] = ["local", "project", "user"];

/** The files and keys of the three scopes for one project. */
export interface ScopePaths {
  /** The project's absolute path: `.mcp.json`'s folder and the `projects` key of the local scope. */
  project: string;
  /** `<project>/.mcp.json`. */
  projectFile: string;
  /** The user file holding the user and local scopes. */
  userFile: string;
}

/** The user file (shared/claude-home.ts), kept here for the config's callers. */
export { userConfigFile };

export function scopePaths(cwd: string, env: Record<string, string | undefined> = process.env): ScopePaths {
  const project = resolve(cwd);
  return { project, projectFile: join(project, ".mcp.json"), userFile: userConfigFile(env) };
}

/** The file a scope is stored in. */
export function scopeFile(scope: Scope, paths: ScopePaths): string {
  return scope === "project" ? paths.projectFile : paths.userFile;
}

/** The JSON path of a scope's `mcpServers` object inside its file. */
export function serversKeyPath(scope: Scope, paths: ScopePaths): string[] {
  return scope === "local" ? ["projects", paths.project, "mcpServers"] : ["mcpServers"];
}

/** How a person names a scope's storage: `.mcp.json`, `~/.claude.json`, `~/.claude.json [project /x]`. */
export function scopeLabel(scope: Scope, paths: ScopePaths, env: Record<string, string | undefined> = process.env): string {
  const home = homeDir(env);
  const file = scopeFile(scope, paths);
  const shown = file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file;
  return scope === "local" ? `${shown} [project ${paths.project}]` : shown;
}

/** One file read and parsed: its document, or why it could not be (a missing file is neither). */
export interface JsonFile {
  path: string;
  /** The raw text (BOM removed); undefined when the file does not exist or cannot be read. */
  text?: string;
  doc?: unknown;
  /** One line, e.g. `invalid JSON at line 3:28: …` or `cannot read (EACCES)`. */
  error?: string;
}

/** Reads and parses a JSON file; never throws. */
export function readJsonFile(path: string): JsonFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/^\uFEFF/, ""); // Editors on Windows add a BOM that JSON.parse rejects.
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? { path } : { path, error: `cannot read (${code ?? (err as Error).message})` };
  }
  try {
    return { path, text, doc: JSON.parse(text) };
  } catch (err) {
    const offset = jsonErrorOffset(text);
    const pos = offset >= 0 ? lineColumn(text, offset) : undefined;
    const where = pos ? ` at line ${pos.line}:${pos.column}` : "";
    return { path, text, error: `invalid JSON${where}: ${(err as Error).message.replace(/^JSON Parse error: /, "")}` };
  }
}

/** The value at `keys` inside `doc`, or undefined where a step is missing or not an object. */
export function valueAt(doc: unknown, keys: string[]): unknown {
  let here = doc;
  for (const key of keys) {
    if (typeof here !== "object" || here === null || Array.isArray(here)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** A scope's `mcpServers` object as written (entries not validated), `{}` when absent. */
export interface ScopeServers {
  scope: Scope;
  file: string;
  servers: Record<string, unknown>;
  /** Why the file or its `mcpServers` could not be used, as one line without the file's name. */
  error?: string;
}

/** Reads one scope's entries; never throws. */
export function readScope(scope: Scope, paths: ScopePaths, file: JsonFile = readJsonFile(scopeFile(scope, paths))): ScopeServers {
  const base = { scope, file: file.path };
  if (file.error) return { ...base, servers: {}, error: file.error };
  if (file.doc === undefined) return { ...base, servers: {} };
  if (typeof file.doc !== "object" || file.doc === null || Array.isArray(file.doc)) {
    return { ...base, servers: {}, error: 'expected an object {"mcpServers": {"<name>": {"command": ...}}}' };
  }
  const servers = valueAt(file.doc, serversKeyPath(scope, paths));
  if (servers === undefined) return { ...base, servers: {} };
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    const where = serversKeyPath(scope, paths).join(".");
    return { ...base, servers: {}, error: `"${where}" must be an object of servers by name` };
  }
  return { ...base, servers: servers as Record<string, unknown> };
}

/** All three scopes, strongest first; the user file is read once for both of its scopes. */
export function readScopes(paths: ScopePaths): ScopeServers[] {
  const user = readJsonFile(paths.userFile);
  return SCOPES.map((scope) => readScope(scope, paths, scope === "project" ? undefined : user));
}
