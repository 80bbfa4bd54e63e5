/**
 * Claude Code's `sandbox` settings keys (its settings schema; sandboxing docs), checked key by key
 * like the rest of a file (schema.ts), and merged across files (merge.ts): a scalar from the highest
 * file that sets it, lists concatenated. Our own key `sandbox.mcpServers` (not Claude Code's, which
 * ignores unknown keys) sandboxes stdio MCP servers. Which of these loosen a repository's settings
 * is loosening.ts's list.
 */

/** A settings file as this merge reads it (files.ts's SettingsFile fits). */
interface SettingsFile {
  scope: string;
  path: string;
  root: string;
  doc: { sandbox?: SandboxDoc };
}

export interface SandboxNetworkDoc {
  allowedDomains?: string[];
  deniedDomains?: string[];
  /** Refuse a domain no list names instead of asking. */
  strictAllowlist?: boolean;
  /** Managed settings only: only managed settings' domains (and WebFetch allow rules) are allowed. */
  allowManagedDomainsOnly?: boolean;
}

export interface SandboxFilesystemDoc {
  allowWrite?: string[];
  denyWrite?: string[];
  denyRead?: string[];
  allowRead?: string[];
}

/** One server's entry under `sandbox.mcpServers.servers`: on or off, and the domains it may reach. */
export interface ServerSandboxDoc {
  enabled?: boolean;
  allowedDomains?: string[];
}

/** `sandbox.mcpServers`: `enabled` for every stdio server, `servers` per server name. */
export interface McpSandboxDoc {
  enabled?: boolean;
  servers?: Record<string, ServerSandboxDoc>;
}

export interface SandboxDoc {
  enabled?: boolean;
  failIfUnavailable?: boolean;
  autoAllowBashIfSandboxed?: boolean;
  allowUnsandboxedCommands?: boolean;
  excludedCommands?: string[];
  network?: SandboxNetworkDoc;
  filesystem?: SandboxFilesystemDoc;
  mcpServers?: McpSandboxDoc;
}

type Check = (v: unknown) => boolean;
const isBool: Check = (v) => typeof v === "boolean";
const isStrings: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const BOOLS = ["enabled", "failIfUnavailable", "autoAllowBashIfSandboxed", "allowUnsandboxedCommands"] as const;
const FILESYSTEM = ["allowWrite", "denyWrite", "denyRead", "allowRead"] as const;
const NETWORK = ["allowedDomains", "deniedDomains"] as const;

/** The `sandbox` object's keys of the right type; one `problem` per key dropped. Unknown keys are ignored (newer Claude Code keys). */
export function checkSandbox(raw: unknown, problem: (key: string, text: string) => void): SandboxDoc | undefined {
  if (!isObject(raw)) {
    problem("sandbox", '"sandbox" must be an object');
    return undefined;
  }
  const doc: Record<string, unknown> = {};
  const take = (into: Record<string, unknown>, from: Record<string, unknown>, key: string, check: Check, dotted: string, text: string) => {
    if (!Object.hasOwn(from, key)) return;
    if (check(from[key])) into[key] = from[key];
    else problem(dotted, `"${dotted}" ${text}`);
  };
  for (const key of BOOLS) take(doc, raw, key, isBool, `sandbox.${key}`, "must be true or false");
  take(doc, raw, "excludedCommands", isStrings, "sandbox.excludedCommands", "must be an array of command patterns");
  for (const [group, keys] of [
    ["filesystem", FILESYSTEM],
    ["network", NETWORK],
  ] as const) {
    if (!Object.hasOwn(raw, group)) continue;
    const given = raw[group];
    if (!isObject(given)) {
      problem(`sandbox.${group}`, `"sandbox.${group}" must be an object`);
      continue;
    }
    const part: Record<string, unknown> = {};
    for (const key of keys) take(part, given, key, isStrings, `sandbox.${group}.${key}`, "must be an array of strings");
    if (group === "network")
      for (const key of ["strictAllowlist", "allowManagedDomainsOnly"]) take(part, given, key, isBool, `sandbox.network.${key}`, "must be true or false");
    doc[group] = part;
  }
  if (Object.hasOwn(raw, "mcpServers")) {
    const mcp = checkMcpSandbox(raw.mcpServers, problem);
    if (mcp) doc.mcpServers = mcp;
  }
  return doc as SandboxDoc;
}

function checkMcpSandbox(raw: unknown, problem: (key: string, text: string) => void): McpSandboxDoc | undefined {
  if (!isObject(raw)) {
    problem("sandbox.mcpServers", '"sandbox.mcpServers" must be an object');
    return undefined;
  }
  const doc: McpSandboxDoc = {};
  if (Object.hasOwn(raw, "enabled")) {
    if (isBool(raw.enabled)) doc.enabled = raw.enabled as boolean;
    else problem("sandbox.mcpServers.enabled", '"sandbox.mcpServers.enabled" must be true or false');
  }
  if (Object.hasOwn(raw, "servers")) {
    if (!isObject(raw.servers)) problem("sandbox.mcpServers.servers", '"sandbox.mcpServers.servers" must be an object of server names');
    else {
      doc.servers = {};
      for (const [name, entry] of Object.entries(raw.servers)) {
        const at = `sandbox.mcpServers.servers.${name}`;
        if (
          !isObject(entry) ||
          (entry.enabled !== undefined && !isBool(entry.enabled)) ||
          (entry.allowedDomains !== undefined && !isStrings(entry.allowedDomains))
        )
          problem(at, `"${at}" must be {"enabled": true|false, "allowedDomains": [...]}`);
        else doc.servers[name] = { enabled: entry.enabled as boolean | undefined, allowedDomains: entry.allowedDomains as string[] | undefined };
      }
    }
  }
  return doc;
}

/** The run's sandbox settings, merged: each scalar with the file it came from, lists with theirs. */
export interface SandboxSettings {
  enabled?: Sourced<boolean>;
  failIfUnavailable?: Sourced<boolean>;
  autoAllowBashIfSandboxed: boolean;
  allowUnsandboxedCommands: boolean;
  excludedCommands: string[];
  allowedDomains: string[];
  deniedDomains: string[];
  /** `network.strictAllowlist`: no question about an unlisted domain, a refusal. */
  strictAllowlist: boolean;
  /** Managed `network.allowManagedDomainsOnly`: `allowedDomains` holds the managed files' alone, and only managed WebFetch rules count. */
  managedDomainsOnly: boolean;
  allowWrite: Sourced<string>[];
  denyWrite: Sourced<string>[];
  denyRead: Sourced<string>[];
  allowRead: Sourced<string>[];
  /** `sandbox.mcpServers.enabled` and each server's entry (the highest file's entry for a name, with that file's scope). */
  mcpEnabled?: Sourced<boolean>;
  mcpServers: Record<string, ServerSandboxDoc & { scope: string }>;
}

interface Sourced<T> {
  value: T;
  file: SettingsFile;
}

/** Merges `files` (highest first); `loosens(file)` false drops that file's loosening keys (loosening.ts lists them). */
export function mergeSandbox<F extends SettingsFile>(files: F[], mayLoosen: (f: F) => boolean): SandboxSettings {
  const first = <T>(pick: (s: SandboxDoc) => T | undefined, looseningWhen?: (v: T) => boolean): Sourced<T> | undefined => {
    for (const file of files) {
      const value = file.doc.sandbox && pick(file.doc.sandbox);
      if (value === undefined) continue;
      if (looseningWhen?.(value) && !mayLoosen(file)) continue;
      return { value, file };
    }
    return undefined;
  };
  const all = <T>(pick: (s: SandboxDoc) => T[] | undefined, loosening: boolean): Sourced<T>[] =>
    files.flatMap((file) => (loosening && !mayLoosen(file) ? [] : (pick(file.doc.sandbox ?? {}) ?? []).map((value) => ({ value, file }))));
  const values = <T>(list: Sourced<T>[]) => list.map((s) => s.value);
  const servers: Record<string, ServerSandboxDoc & { scope: string }> = {};
  for (const file of [...files].reverse()) {
    for (const [name, entry] of Object.entries(file.doc.sandbox?.mcpServers?.servers ?? {})) {
      // A repository's file may switch a server's sandbox on without trust, never off, nor widen its domains.
      if (!mayLoosen(file)) {
        if (entry.enabled === true) servers[name] = { ...servers[name], enabled: true, scope: file.scope };
      } else servers[name] = { ...entry, scope: file.scope };
    }
  }
  const managedOnly = files.some((f) => f.scope === "managed" && f.doc.sandbox?.network?.allowManagedDomainsOnly === true);
  const allowed = all((s) => s.network?.allowedDomains, true);
  return {
    // Switching the sandbox off, or a looser default, is a loosening; switching it on never is.
    enabled: first(
      (s) => s.enabled,
      (v) => v === false,
    ),
    failIfUnavailable: first(
      (s) => s.failIfUnavailable,
      (v) => v === false,
    ),
    autoAllowBashIfSandboxed:
      first(
        (s) => s.autoAllowBashIfSandboxed,
        (v) => v === true,
      )?.value ?? false,
    allowUnsandboxedCommands:
      first(
        (s) => s.allowUnsandboxedCommands,
        (v) => v === true,
      )?.value ?? true,
    excludedCommands: values(all((s) => s.excludedCommands, true)),
    allowedDomains: values(managedOnly ? allowed.filter((e) => e.file.scope === "managed") : allowed),
    strictAllowlist:
      first(
        (s) => s.network?.strictAllowlist,
        (v) => v === false,
      )?.value === true,
    managedDomainsOnly: managedOnly,
    deniedDomains: values(all((s) => s.network?.deniedDomains, false)),
    allowWrite: all((s) => s.filesystem?.allowWrite, true),
    denyWrite: all((s) => s.filesystem?.denyWrite, false),
    denyRead: all((s) => s.filesystem?.denyRead, false),
    allowRead: all((s) => s.filesystem?.allowRead, true),
    mcpEnabled: first(
      (s) => s.mcpServers?.enabled,
      (v) => v === false,
    ),
    mcpServers: servers,
  };
}
