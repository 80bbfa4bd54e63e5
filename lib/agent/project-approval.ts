/**
 * Which of a project's `.mcp.json` servers may start (lib/mcp/config/approvals.ts keeps the answers).
 * The interactive session asks about servers never approved (or changed since); print mode never
 * asks and starts those, as Claude Code's print mode does, unless `MCP_REQUIRE_APPROVAL=1` is set.
 * The `mcp …` inspector starts none of them: it lists them as pending approval, as Claude Code's
 * `mcp list` does, and `mcp approve` approves them for scripts. A refused server starts nowhere.
 */
import { join } from "node:path";
import { adoptApprovals, type ApprovalPaths, approvalStatus, recordApprovals } from "../mcp/config/approvals.ts";
import type { ServerConfig } from "../mcp/config/load.ts";
import { readScope, scopePaths } from "../mcp/config/scopes.ts";
import { userConfigDir } from "../shared/claude-home.ts";
import { readMcpEnv } from "../mcp/config/env.ts";

/** Our state file (fingerprints of approved entries) in the user's config folder. */
export const APPROVALS_FILE = "agent-mcp-approvals.json";

export function approvalPaths(cwd: string, env: Record<string, string | undefined> = process.env): ApprovalPaths {
  const paths = scopePaths(cwd, env);
  const dir = userConfigDir(env);
  return {
    project: paths.project,
    userFile: paths.userFile,
    userSettings: join(dir, "settings.json"),
    localSettings: join(paths.project, ".claude", "settings.local.json"),
    projectSettings: join(paths.project, ".claude", "settings.json"),
    fingerprints: join(dir, APPROVALS_FILE),
  };
}

/** True when `MCP_REQUIRE_APPROVAL` asks print mode to start only approved project servers. */
export function approvalRequired(env: Record<string, string | undefined> = process.env): boolean {
  return readMcpEnv(env).requireApproval;
}

/** The project servers among `servers` with their entries as written in `.mcp.json`. */
function projectEntries(servers: ServerConfig[], cwd: string): Record<string, unknown> {
  const written = readScope("project", scopePaths(cwd)).servers;
  return Object.fromEntries(servers.filter((s) => s.origin?.scope === "project" && Object.hasOwn(written, s.name)).map((s) => [s.name, written[s.name]]));
}

/**
 * Without asking anyone: the names that must not start. Refused ones always; with `required`,
 * every one not approved (or changed since). Writes nothing.
 */
export function unapprovedWithoutAsking(servers: ServerConfig[], cwd: string, required = approvalRequired()): Set<string> {
  const statuses = approvalStatus(approvalPaths(cwd), projectEntries(servers, cwd));
  return new Set([...statuses].filter(([, s]) => s.status === "refused" || (required && s.status === "pending")).map(([name]) => name));
}

/** Why the inspector did not start a project server: never approved (or changed since), or refused. */
export const PENDING_APPROVAL = "pending approval";
export const REFUSED = "not approved";

/**
 * For the inspector, which never asks and never starts an unapproved server: each project server
 * that must not start, with why (PENDING_APPROVAL or REFUSED). Writes nothing.
 */
export function notStartedWithoutConsent(servers: ServerConfig[], cwd: string, env: Record<string, string | undefined> = process.env): Map<string, string> {
  const statuses = approvalStatus(approvalPaths(cwd, env), projectEntries(servers, cwd));
  const out = new Map<string, string>();
  for (const [name, s] of statuses) if (s.status !== "approved") out.set(name, s.status === "refused" ? REFUSED : PENDING_APPROVAL);
  return out;
}

/**
 * `mcp approve`: approves the named project servers as the session's question does (Claude Code's
 * keys and our fingerprint). Resolves with the names that are not project servers of `cwd`.
 * @throws ConfigWriteError when the answers cannot be written.
 */
export async function approveByName(
  servers: ServerConfig[],
  cwd: string,
  names: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<string[]> {
  const entries = projectEntries(servers, cwd);
  const unknown = names.filter((n) => !Object.hasOwn(entries, n));
  const known = names.filter((n) => Object.hasOwn(entries, n));
  await recordApprovals(
    approvalPaths(cwd, env),
    known.map((name) => ({ name, approved: true, entry: entries[name] })),
  );
  return unknown;
}

/** A server to ask about: its name, how it starts (command line or URL), and whether its entry changed since it was approved. */
export interface PendingServer {
  name: string;
  target: string;
  /** Reached over the network (http, sse) rather than started here. */
  remote: boolean;
  changed: boolean;
}

/**
 * The interactive rule: asks `ask` about the servers never approved or changed since, remembers
 * the answers (null from `ask`: the user left the question; nothing is remembered and none of
 * them start), and resolves with every name that must not start.
 */
export async function approveInteractively(
  servers: ServerConfig[],
  cwd: string,
  ask: (pending: PendingServer[]) => Promise<Map<string, boolean> | null>,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<Set<string>> {
  const paths = approvalPaths(cwd);
  const entries = projectEntries(servers, cwd);
  const statuses = approvalStatus(paths, entries);
  const blocked = new Set<string>();
  const pending: PendingServer[] = [];
  const adopted: Record<string, unknown> = {};
  for (const [name, s] of statuses) {
    if (s.status === "refused") blocked.add(name);
    if (s.status === "pending") {
      const config = servers.find((c) => c.name === name)!;
      pending.push({ name, target: target(config, entries[name]), remote: config.type === "http" || config.type === "sse", changed: Boolean(s.changed) });
    }
    if (s.unrecorded) adopted[name] = entries[name];
  }
  // The answers hold for this session even when they cannot be remembered.
  await adoptApprovals(paths, adopted).catch((err: unknown) => warn(`cannot remember MCP server approvals: ${(err as Error).message}`));
  if (!pending.length) return blocked;
  const answers = await ask(pending);
  if (!answers) {
    for (const p of pending) blocked.add(p.name);
    return blocked;
  }
  await recordApprovals(
    paths,
    pending.map((p) => ({ name: p.name, approved: answers.get(p.name) === true, entry: entries[p.name] })),
  ).catch((err: unknown) => warn(`cannot remember MCP server approvals: ${(err as Error).message}`));
  for (const p of pending) if (answers.get(p.name) !== true) blocked.add(p.name);
  return blocked;
}

/**
 * `command arg…` as written (a `${VAR}` stays a reference), or the URL of a remote server, with
 * the command its token comes from (`oauth.assertionCommand`, SEP-1933): approving the server
 * approves running that command too.
 */
function target(config: ServerConfig, written: unknown): string {
  if (config.type === "sdk") return "(in the host program)";
  if (config.type !== "stdio") {
    const command = (written as { oauth?: { assertionCommand?: unknown } } | undefined)?.oauth?.assertionCommand;
    const url = config.written?.url ?? config.url;
    return typeof command === "string" ? `${url}, its token from: ${command}` : url;
  }
  const { command, args } = config.written ?? config;
  return [command, ...args].map((a) => (a === "" || /[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");
}
