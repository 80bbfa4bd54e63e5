/**
 * The run's OS sandbox from its settings (Claude Code's `sandbox` keys): Bash's when
 * `sandbox.enabled` is true, stdio MCP servers' when `sandbox.mcpServers` says so (mcp-servers.ts),
 * each started when bubblewrap works here; otherwise one line and commands run outside,
 * unless `failIfUnavailable` holds, which stops the run before any model call. Where nobody is
 * asked (-p, host mode) `failIfUnavailable` counts only from managed settings, `--settings`, the
 * project's files or the process environment (AGENT_SANDBOX_FAIL_IF_UNAVAILABLE=1), never the
 * user's home, so a home cannot change a scripted run's exit code.
 */
import { join } from "node:path";
import { homeDir, userConfigDir } from "../../shared/claude-home.ts";
import { sandboxAvailability } from "../../sandbox/availability.ts";
import { Sandbox, sandboxTempDir } from "../../sandbox/sandbox.ts";
import { type SandboxPolicy, within } from "../../sandbox/policy.ts";
import type { SettingsHooks } from "../policy/turn-hooks.ts";
import { onShutdown } from "../lifecycle.ts";
import { allowedPaths, deniedPaths, real, sandboxPath } from "./paths.ts";
import { nestedProtected } from "../../sandbox/nested.ts";
import { hostSocketDirs } from "../../sandbox/socket-dirs.ts";
import { RunSandbox } from "./run-sandbox.ts";
import { loadBashGrammar } from "../permissions/bash/grammar.ts";
import { type ServerSandboxFor, sandboxesServers, serverKeys, serverSandboxes } from "./mcp-servers.ts";
import { type DomainQuestion, domainLists, startSandboxNetwork } from "./network-setup.ts";

export interface SandboxSetupOptions {
  cwd: string;
  /** True when a person is there to answer (the interactive session): the home's `failIfUnavailable` counts too. */
  interactive: boolean;
  /** The process environment as the run started. */
  env: Readonly<Record<string, string | undefined>>;
  warn(line: string): void;
  /** The mode's question about a domain no list names (none in -p: refused). */
  askDomain?: DomainQuestion;
}

/** What the sandbox settings give the run: Bash's sandbox and the stdio servers' choice, each when on and able to start. */
export interface RunSandboxes {
  bash?: RunSandbox;
  servers?: ServerSandboxFor;
}

/** The run's sandboxes, or `{ exit: 1 }` when one must run and cannot start. */
export async function setupSandbox(settings: SettingsHooks | undefined, opts: SandboxSetupOptions): Promise<RunSandboxes | { exit: 1 }> {
  const s = settings?.settings.effective.sandbox;
  if (!s) return {};
  const bash = s.enabled?.value === true;
  const keys = serverKeys(s, opts.interactive);
  if (!bash && !sandboxesServers(keys)) return {};
  const available = sandboxAvailability(opts.env);
  if (!available.ok) {
    const fail = s.failIfUnavailable;
    const counts = opts.env.AGENT_SANDBOX_FAIL_IF_UNAVAILABLE === "1" || (fail?.value === true && (opts.interactive || fail.file.scope !== "user"));
    if (counts) {
      opts.warn(`error: the sandbox is enabled with failIfUnavailable, but it cannot start: ${available.reason}`);
      return { exit: 1 };
    }
    opts.warn(`sandbox: cannot start (${available.reason}); ${bash ? "commands" : "MCP servers"} run without it`);
    return {};
  }
  const home = homeDir(opts.env);
  // Real paths throughout: bubblewrap cannot mount onto a symbolic link.
  const cwd = real(opts.cwd);
  const path = (e: { value: string; file: { root: string } }) => sandboxPath(e.value, e.file.root, home);
  const readDenied = settings!.settings.rules.readDenyGlobs().flatMap((g) => deniedPaths(g, opts.warn));
  // Hiding the project or a folder above it would leave nothing to run: such an entry is one line and dropped.
  const denyRead = [...s.denyRead.map(path), ...readDenied].filter((p) => {
    if (!within(cwd, p)) return true;
    opts.warn(`sandbox: denyRead ${p} would hide the project itself; ignored`);
    return false;
  });
  // Protected names in subfolders (a nested repository's hooks, a subfolder's .claude/), found once now.
  const rules = settings!.settings.rules;
  const denyWrite = [...s.denyWrite.map(path), ...rules.editGlobs("deny").flatMap((g) => deniedPaths(g, opts.warn)), ...nestedProtected(cwd)];
  // The host services' Unix socket folders, hidden inside (socket-dirs.ts).
  const hiddenDirs = hostSocketDirs(opts.env);
  const servers = sandboxesServers(keys)
    ? await serverSandboxes(
        { ...keys, deniedDomains: s.deniedDomains, managedDomainsOnly: s.managedDomainsOnly },
        { bwrap: available.bwrap, cwd, stateRoot: join(real(userConfigDir(opts.env)), "mcp-sandbox"), denyRead, denyWrite, hiddenDirs },
      )
    : undefined;
  if (!bash) return { servers };
  const temp = sandboxTempDir();
  onShutdown(async () => temp.remove());
  const policy: SandboxPolicy = {
    projectDir: cwd,
    tempDir: temp.path,
    allowWrite: [...s.allowWrite.map(path), ...rules.editGlobs("allow").flatMap(allowedPaths)],
    denyWrite,
    denyRead,
    allowRead: s.allowRead.map(path),
    hiddenDirs,
    // strictAllowlist: an unlisted domain is refused without a question.
    // Where nobody is asked (-p) a refused domain is one stderr line, so a script's failing download says why.
    network: await startSandboxNetwork(
      domainLists(s, settings!.settings.effective.rules),
      s.strictAllowlist ? undefined : opts.askDomain,
      opts.askDomain ? undefined : opts.warn,
    ),
  };
  // excludedCommands are matched on the shell grammar; without it every command stays sandboxed.
  if (s.excludedCommands.length) await loadBashGrammar().catch(() => opts.warn("sandbox: cannot load the shell grammar; excludedCommands stay sandboxed"));
  return { bash: new RunSandbox(new Sandbox(policy, available.bwrap), s), servers };
}
