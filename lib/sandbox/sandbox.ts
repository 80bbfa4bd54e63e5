/**
 * A started sandbox: the policy, the bwrap found, and `wrap`, which turns one command line into
 * the same command under bubblewrap. Used by the Bash tool and the MCP stdio transport's spawn.
 */
import { mkdtempSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BwrapPlan, bwrapPlan, type PathKind } from "./bwrap.ts";
import { gitHooksPath } from "./git-hooks-path.ts";
import { withBridge } from "./network.ts";
import { holdPlaceholders, isPlaceholder } from "./placeholders.ts";
import { guardCommonDirs } from "./git-dirs.ts";
import type { SandboxPolicy } from "./policy.ts";

/** A command line made ready to spawn; `release` after the process ended (removes masks bwrap created). */
export interface WrappedCommand {
  argv: string[];
  release(): void;
}

export interface WrapOptions {
  /** Where the command starts. */
  cwd: string;
  /** Single files that must stay writable (they must exist). */
  files?: string[];
  /** Variables set inside. */
  env?: Record<string, string>;
}

/** What a spawner needs of a sandbox: one command line wrapped. */
export interface CommandSandbox {
  wrap(argv: string[], opts: WrapOptions): WrappedCommand;
}

export class Sandbox implements CommandSandbox {
  constructor(
    readonly policy: SandboxPolicy,
    /** The bwrap executable (availability.ts). */
    readonly bwrap: string,
  ) {}

  /** `argv` under bubblewrap with this sandbox's policy. */
  wrap(argv: string[], opts: WrapOptions): WrappedCommand {
    const plan = this.plan(opts);
    const releasePlaceholders = holdPlaceholders(plan.placeholders);
    const unguard = guardCommonDirs(plan.gitDirs);
    const net = this.policy.network;
    const command = net.kind === "proxy" ? withBridge(argv, net.bridge, net.port, net.socket) : argv;
    const release = () => {
      releasePlaceholders();
      unguard();
    };
    return { argv: [this.bwrap, ...plan.args, ...command], release };
  }

  /** The bwrap arguments for one call, as of what is on disk now. */
  plan(opts: WrapOptions): BwrapPlan {
    return bwrapPlan(this.policy, {
      cwd: opts.cwd,
      // Real paths: bubblewrap cannot mount onto a symbolic link (a TMPDIR that is one).
      files: opts.files?.map((f) => realpathSync(f)),
      env: opts.env,
      hooksPath: gitHooksPath(this.policy.projectDir),
      kind: pathKind,
    });
  }
}

/** What is at `path`: a placeholder another call made still counts as missing, so this call masks it too. */
export function pathKind(path: string): PathKind {
  if (isPlaceholder(path)) return "missing";
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

/** A private temp folder for one run's sandboxed processes; `remove` deletes it. */
export function sandboxTempDir(): { path: string; remove(): void } {
  // Its real path: bubblewrap cannot mount onto a symbolic link (a TMPDIR that is one).
  const path = realpathSync(mkdtempSync(join(tmpdir(), "agent-sandbox-")));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
