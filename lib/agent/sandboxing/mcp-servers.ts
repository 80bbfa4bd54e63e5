/**
 * Stdio MCP servers in the OS sandbox (our keys, under Claude Code's `sandbox` object and never in
 * `.mcp.json`'s entries, so Claude Code still reads that file): `sandbox.mcpServers.enabled` for
 * every stdio server, `sandbox.mcpServers.servers.<name>.enabled` per server (it wins), and
 * `…servers.<name>.allowedDomains`, the only domains that server may reach. A sandboxed server may
 * write only in the project and in its own state folder, `<claude config dir>/mcp-sandbox/<name>/`,
 * which holds its temp folder and its own package caches (npm, uv, XDG), so an `npx -y` or `uvx`
 * server never writes a cache that runs unsandboxed later.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, type CommandSandbox, type WrapOptions, type WrappedCommand } from "../../sandbox/sandbox.ts";
import type { SandboxPolicy } from "../../sandbox/policy.ts";
import type { SandboxSettings } from "../settings/sandbox-keys.ts";
import { startSandboxNetwork } from "./network-setup.ts";

/** The sandbox a server with this entry runs in; undefined: as it is. */
export type ServerSandboxFor = (config: { name: string; type?: string }) => CommandSandbox | undefined;

/**
 * The server keys that count: every file's in the session; where nobody is asked (-p, host mode)
 * not the home's, so a home cannot make a scripted run's server fail and change its first request.
 */
export function serverKeys(s: SandboxSettings, interactive: boolean): Pick<SandboxSettings, "mcpEnabled" | "mcpServers"> {
  if (interactive) return s;
  const servers = Object.fromEntries(Object.entries(s.mcpServers).filter(([, e]) => e.scope !== "user"));
  return { mcpEnabled: s.mcpEnabled?.file.scope === "user" ? undefined : s.mcpEnabled, mcpServers: servers };
}

/** True when some server may run sandboxed (the switch for all, or one server's). */
export function sandboxesServers(s: Pick<SandboxSettings, "mcpEnabled" | "mcpServers">): boolean {
  return s.mcpEnabled?.value === true || Object.values(s.mcpServers).some((e) => e.enabled === true);
}

/** A server name as a folder name: letters, digits, `.`, `_`, `-`; anything else `_`. */
export const stateFolderName = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "_";

export interface ServerSandboxBase {
  bwrap: string;
  cwd: string;
  /** Where servers' state folders live. */
  stateRoot: string;
  denyRead: string[];
  denyWrite: string[];
  hiddenDirs: string[];
}

/** Starts what the sandboxed servers need (a proxy per server with domains) and returns the per-entry choice. */
export async function serverSandboxes(
  s: Pick<SandboxSettings, "mcpEnabled" | "mcpServers" | "deniedDomains" | "managedDomainsOnly">,
  base: ServerSandboxBase,
): Promise<ServerSandboxFor> {
  const networks = new Map<string, SandboxPolicy["network"]>();
  for (const [name, entry] of Object.entries(s.mcpServers)) {
    // allowManagedDomainsOnly: a server's domains count only from managed settings.
    if (s.managedDomainsOnly && entry.scope !== "managed") continue;
    if (entry.allowedDomains?.length) networks.set(name, await startSandboxNetwork({ allowed: entry.allowedDomains, denied: s.deniedDomains }, undefined));
  }
  const made = new Map<string, CommandSandbox>();
  return (config) => {
    if (config.type !== undefined && config.type !== "stdio") return undefined;
    const on = s.mcpServers[config.name]?.enabled ?? s.mcpEnabled?.value ?? false;
    if (!on) return undefined;
    let sandbox = made.get(config.name);
    if (!sandbox) {
      sandbox = serverSandbox(config.name, base, networks.get(config.name) ?? { kind: "none" });
      made.set(config.name, sandbox);
    }
    return sandbox;
  };
}

function serverSandbox(name: string, base: ServerSandboxBase, network: SandboxPolicy["network"]): CommandSandbox {
  const state = join(base.stateRoot, stateFolderName(name));
  const temp = join(state, "tmp");
  mkdirSync(temp, { recursive: true, mode: 0o700 });
  const policy: SandboxPolicy = {
    projectDir: base.cwd,
    tempDir: temp,
    allowWrite: [state],
    denyWrite: base.denyWrite,
    denyRead: base.denyRead,
    allowRead: [],
    network,
    hiddenDirs: base.hiddenDirs,
  };
  const inner = new Sandbox(policy, base.bwrap);
  // Its own caches: what it downloads runs only in here.
  const env = {
    npm_config_cache: join(state, "npm-cache"),
    npm_config_update_notifier: "false",
    UV_CACHE_DIR: join(state, "uv-cache"),
    XDG_CACHE_HOME: join(state, "cache"),
    XDG_DATA_HOME: join(state, "data"),
    XDG_STATE_HOME: join(state, "state"),
  };
  return { wrap: (argv: string[], opts: WrapOptions): WrappedCommand => inner.wrap(argv, { ...opts, env: { ...env, ...opts.env } }) };
}
