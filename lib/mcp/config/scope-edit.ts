/**
 * Adding and removing server entries in a scope's file (see scopes.ts): each change re-reads the
 * file, touches only `mcpServers.<name>` (for local: `projects.<project>.mcpServers.<name>`) and
 * replaces the file atomically; the user file is always left with mode 0600, since entries hold
 * `env` values and headers that may be secrets.
 */
import { editJsonFile } from "../../files/json-edit.ts";
import { readScope, readScopes, type Scope, type ScopePaths, scopeFile, scopeLabel, serversKeyPath, USER_FILE_MODE, valueAt } from "./scopes.ts";

/** A refused change; `exitCode` 2 for the user's input (a duplicate, an ambiguous name), 1 for a missing entry. */
export class ScopeEditError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

const modeFor = (scope: Scope) => (scope === "project" ? undefined : USER_FILE_MODE);

/**
 * Writes `entry` as server `name` in `scope`.
 * @throws ScopeEditError (exit 2) when the scope already has that name; ConfigWriteError.
 */
export function addServer(scope: Scope, paths: ScopePaths, name: string, entry: Record<string, unknown>): void {
  const keyPath = serversKeyPath(scope, paths);
  editJsonFile(
    scopeFile(scope, paths),
    (doc) => {
      const servers = valueAt(doc, keyPath);
      if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers))) {
        throw new ScopeEditError(`${scopeLabel(scope, paths)}: "${keyPath.join(".")}" is not an object; not changed`, 1);
      }
      if (servers && Object.hasOwn(servers, name)) {
        throw new ScopeEditError(`a server named "${name}" already exists in ${scope} scope (${scopeLabel(scope, paths)}); remove it first`, 2);
      }
      return [{ path: [...keyPath, name], value: entry }];
    },
    { mode: modeFor(scope) },
  );
}

/** The scopes whose file has an entry `name`, strongest first. */
export function scopesHaving(paths: ScopePaths, name: string): Scope[] {
  return readScopes(paths)
    .filter((s) => Object.hasOwn(s.servers, name))
    .map((s) => s.scope);
}

/**
 * Removes server `name` from `scope`, or, without one, from the only scope that has it.
 * Returns the scope it was removed from.
 * @throws ScopeEditError: exit 1 when no scope (or not the one given) has it, exit 2 when several do
 * and none was given; ConfigWriteError.
 */
export function removeServer(paths: ScopePaths, name: string, scope?: Scope): Scope {
  const having = scopesHaving(paths, name);
  if (scope === undefined) {
    if (having.length === 0) throw new ScopeEditError(`no MCP server named "${name}" in any scope`, 1);
    if (having.length > 1) {
      throw new ScopeEditError(`"${name}" exists in several scopes (${having.join(", ")}): say which with --scope ${having.join("|")}`, 2);
    }
    scope = having[0]!;
  } else if (!having.includes(scope)) {
    const elsewhere = having.length ? ` (it is in: ${having.join(", ")})` : "";
    throw new ScopeEditError(`no MCP server named "${name}" in ${scope} scope${elsewhere}`, 1);
  }
  const keyPath = serversKeyPath(scope, paths);
  editJsonFile(
    scopeFile(scope, paths),
    (doc) => {
      // Gone meanwhile (another program removed it): nothing left to do.
      const servers = valueAt(doc, keyPath);
      if (!servers || typeof servers !== "object" || !Object.hasOwn(servers, name)) return [];
      // The last one out leaves `{}` rather than an emptied block with its old line breaks.
      return Object.keys(servers).length === 1 ? [{ path: keyPath, value: {} }] : [{ path: [...keyPath, name], value: undefined }];
    },
    { mode: modeFor(scope) },
  );
  return scope;
}

/** The entry of `name` in `scope` as written, or undefined. */
export function entryIn(scope: Scope, paths: ScopePaths, name: string): unknown {
  return readScope(scope, paths).servers[name];
}
