/**
 * What a sandboxed process may touch, as plain absolute paths and domains: the one policy from
 * which the bubblewrap command line (bwrap.ts) and the Seatbelt profile (seatbelt.ts) are both
 * written. It knows no settings file; the agent builds it from whatever the settings say.
 */
import { join } from "node:path";

export interface SandboxPolicy {
  /** The project: writable, except its protected paths (protectedPaths). */
  projectDir: string;
  /** A private temp folder: writable, and TMPDIR inside. */
  tempDir: string;
  /** More writable paths (absolute). */
  allowWrite: string[];
  /** Read-only even inside a writable path (absolute). */
  denyWrite: string[];
  /** Unreadable: a folder shows empty, a file reads as empty (absolute). */
  denyRead: string[];
  /** Readable again inside a `denyRead` folder (absolute). */
  allowRead: string[];
  /**
   * The network: `none` (no interface but loopback), or only through the filtering proxy whose
   * host-side Unix socket is `socket` (network.ts bridges it to `port` inside).
   */
  network: { kind: "none" } | ProxyNetwork;
  /** Folders hidden behind an empty tmpfs (the host services' Unix sockets: socket-dirs.ts); what the sandbox needs in them is bound back. */
  hiddenDirs?: string[];
}

/** Network through the host-side proxy's Unix socket, reached inside at 127.0.0.1:`port` by `bridge` (our executable). */
export interface ProxyNetwork {
  kind: "proxy";
  socket: string;
  port: number;
  bridge: string[];
}

/**
 * Files inside a writable project that would let a sandboxed command change what runs outside it
 * later: the agent's own settings, MCP servers, git hooks and config, direnv and shell start-up
 * files, and (as Claude Code also masks them) the editors' folders, whose tasks may run on opening.
 */
export const PROTECTED_NAMES = [
  ".claude",
  ".vscode",
  ".idea",
  ".mcp.json",
  ".gitmodules",
  ".envrc",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".gitconfig",
] as const;

/** Folders among the protected names (a missing one is masked as an empty read-only folder, not a file). */
export const PROTECTED_FOLDERS: ReadonlySet<string> = new Set([".claude", ".vscode", ".idea", ".git/hooks"]);

/**
 * The protected paths of `dir` (absolute): PROTECTED_NAMES, then `.git/hooks` and `.git/config`,
 * then `hooksPath` (git's core.hooksPath, already resolved) when given.
 */
export function protectedPaths(dir: string, hooksPath?: string): string[] {
  const paths = [...PROTECTED_NAMES.map((n) => join(dir, n)), join(dir, ".git", "hooks"), join(dir, ".git", "config")];
  if (hooksPath && !paths.includes(hooksPath)) paths.push(hooksPath);
  return paths;
}

/** True when `path` is `dir` or lies inside it (both absolute, normalised). */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
