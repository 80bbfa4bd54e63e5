/**
 * A sandbox policy (policy.ts) as a bubblewrap command line: new user, mount, PID and network
 * namespaces, every capability dropped, the whole filesystem read-only, then the writable paths,
 * then what stays read-only inside them (protected paths, denyWrite), then what cannot be read.
 * Pure: what exists on disk comes from `kind`, so unit tests pin the argv.
 */
import { dirname, join } from "node:path";
import { proxyEnv } from "./network.ts";
import { PROTECTED_FOLDERS, protectedPaths, type SandboxPolicy, within } from "./policy.ts";
import { gitDirsOf, selfBinds } from "./git-dirs.ts";

export type PathKind = "dir" | "file" | "missing";

/** A mount point bwrap will create on the host because the path did not exist (removed after the call: placeholders.ts). */
export interface Placeholder {
  path: string;
  folder: boolean;
}

export interface BwrapPlan {
  /** bwrap's arguments, ending with `--`: the command follows. */
  args: string[];
  /** Mount points that bwrap creates inside writable paths, to remove once the call is over. */
  placeholders: Placeholder[];
  /** The `.git` folders kept from being renamed (git-dirs.ts): a `commondir` a call plants in one is removed after it. */
  gitDirs: string[];
}

export interface BwrapOptions {
  /** Where the command starts (`--chdir`). */
  cwd: string;
  /** Single files the caller needs writable (the Bash tool's directory file), created beforehand. */
  files?: string[];
  /** git's core.hooksPath of the project, resolved (git-hooks-path.ts). */
  hooksPath?: string;
  /** What is at a path now. */
  kind(path: string): PathKind;
  /** Variables set inside (after the caller's environment). */
  env?: Record<string, string>;
}

/** The namespaces and hardening of every sandboxed process, also what availability.ts probes. */
export const BASE_ARGS = ["--new-session", "--die-with-parent", "--unshare-user", "--unshare-pid", "--unshare-net", "--cap-drop", "ALL"];

/** bwrap's arguments for running a command under `policy`. */
export function bwrapPlan(policy: SandboxPolicy, opts: BwrapOptions): BwrapPlan {
  const args = [...BASE_ARGS, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  // The host services' socket folders first, so that the binds below can bring back what lies in them.
  const hidden = policy.hiddenDirs ?? [];
  for (const dir of hidden) args.push("--tmpfs", dir);
  const writable = [policy.tempDir, policy.projectDir, ...policy.allowWrite].filter((p) => opts.kind(p) !== "missing");
  for (const path of unique(writable)) args.push("--bind", path, path);
  for (const file of opts.files ?? []) args.push("--bind", file, file);
  const isWritable = (path: string) => writable.some((w) => within(path, w));
  const isHidden = (path: string) => hidden.some((h) => within(path, h)) && !isWritable(path);
  // The proxy's socket and the bridge's executable, read-only, when they lie in a hidden folder.
  const net = policy.network;
  const needed = net.kind === "proxy" ? [dirname(net.socket), ...net.bridge.filter((p) => p.startsWith("/")).map((p) => dirname(p))] : [];
  for (const dir of unique(needed)) if (isHidden(dir)) args.push("--ro-bind", dir, dir);
  const placeholders: Placeholder[] = [];

  // Read-only inside the writable paths: what exists is bound onto itself read-only, what does not is masked.
  // In the other writable folders (allowWrite), the protected names that exist stay read-only too (a home's .bashrc).
  const elsewhere = policy.allowWrite.filter((dir) => opts.kind(dir) === "dir").flatMap((dir) => protectedPaths(dir).filter((p) => opts.kind(p) !== "missing"));
  const readOnly = [...projectProtected(policy.projectDir, opts), ...[...policy.denyWrite, ...elsewhere].map((path) => ({ path, folder: false }))];
  // A .git folder and the folders above it, bound onto themselves so none can be renamed away and replaced.
  const gitDirs = gitDirsOf(readOnly.map((r) => r.path).filter(isWritable), opts.kind);
  for (const dir of selfBinds(policy.projectDir, gitDirs)) args.push("--bind", dir, dir);
  for (const { path, folder } of uniqueBy(readOnly)) {
    if (!isWritable(path)) continue;
    const kind = opts.kind(path);
    if (kind !== "missing") {
      args.push("--ro-bind", path, path);
      continue;
    }
    const mask = highestMissing(path, opts.kind, folder);
    if (placeholders.some((p) => within(mask.path, p.path))) continue;
    placeholders.push(mask);
    if (mask.folder) args.push("--tmpfs", mask.path, "--remount-ro", mask.path);
    else args.push("--ro-bind", "/dev/null", mask.path);
  }

  // Unreadable: an empty read-only folder, or a file that reads as empty; missing ones hide nothing.
  // What lies hidden already needs nothing more (and has no mount point inside).
  for (const path of unique(policy.denyRead).filter((p) => !isHidden(p))) {
    const kind = opts.kind(path);
    if (kind === "dir") args.push("--tmpfs", path, "--remount-ro", path);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", path);
  }
  for (const path of unique(policy.allowRead).filter((p) => !isHidden(p))) {
    if (opts.kind(path) !== "missing" && policy.denyRead.some((d) => within(path, d) && path !== d)) args.push("--ro-bind", path, path);
  }

  const proxy = net.kind === "proxy" ? proxyEnv(net.port) : {};
  for (const [name, value] of Object.entries({ TMPDIR: policy.tempDir, ...proxy, ...opts.env })) args.push("--setenv", name, value);
  args.push("--chdir", opts.cwd, "--");
  return { args, placeholders, gitDirs };
}

/** The project's protected paths, with `.git` as it is: a missing one masked whole, a `.git` file (a worktree's link) kept read-only. */
function projectProtected(dir: string, opts: BwrapOptions): Placeholder[] {
  const git = join(dir, ".git");
  const gitKind = opts.kind(git);
  const paths = protectedPaths(dir, opts.hooksPath).filter((p) => gitKind === "dir" || !within(p, git));
  const out = paths.map((path) => ({ path, folder: PROTECTED_FOLDERS.has(path.slice(dir.length + 1)) || path === opts.hooksPath }));
  if (gitKind !== "dir") out.push({ path: git, folder: gitKind === "missing" });
  return out;
}

/** The mask for a missing `path`: itself when its parent exists, else its highest missing ancestor, as a folder. */
function highestMissing(path: string, kind: (p: string) => PathKind, folder: boolean): Placeholder {
  let at = path;
  while (kind(dirname(at)) === "missing" && dirname(at) !== at) at = dirname(at);
  return at === path ? { path, folder } : { path: at, folder: true };
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

function uniqueBy(items: Placeholder[]): Placeholder[] {
  const seen = new Set<string>();
  return items.filter((i) => !seen.has(i.path) && seen.add(i.path));
}
