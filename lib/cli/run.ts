/**
 * ONE start of a run for every mode (-p, the interactive session, host mode): the session opened,
 * the settings loaded, the runtime started from the flags, the conversation's routes pinned, and
 * the end (SessionEnd hooks, then every server shut down). Each mode keeps only how it reads input,
 * asks and shows. The exit codes are -p's, in every mode: 2 for a usage error (a malformed session
 * flag, a bad --settings or --mcp-config), 1 for a run that cannot go on.
 */
import type { CliArgs } from "./flags/args.ts";
import { openRunSession, SessionError } from "./flags/session-flags.ts";
import { loadSettings } from "./flags/settings.ts";
import { runtimeOptions } from "./flags/runtime-options.ts";
import type { AgentRuntime } from "../agent/runtime/runtime.ts";
import { startRuntime } from "../agent/runtime/runtime-start.ts";
import { McpConfigFlagError, type RuntimeOptions } from "../agent/runtime/runtime-options.ts";
import { ModelError } from "../agent/model/model.ts";
import { AgentsOptionError } from "../agent/subagents/options.ts";
import { onShutdown, shutdown } from "../agent/lifecycle.ts";
import type { OpenedSession } from "../agent/sessions/session-open.ts";
import type { SettingsHooks } from "../agent/policy/turn-hooks.ts";
import type { Loosening } from "../agent/settings/consent.ts";
import { bindTaskList } from "../agent/task-list/task-list.ts";
import type { RunSandboxes } from "../agent/sandboxing/setup.ts";

/** What the mode's display gives the runtime (runtimeOptions' callbacks). */
export type RunCallbacks = Parameters<typeof runtimeOptions>[2];

export interface RunOpenOptions {
  cwd: string;
  /** One line for the user (stderr in every mode before its display exists). */
  warn(line: string): void;
  /** The session to resume, when the mode chose it (the session's picker); the flags' otherwise. */
  resume?: string;
  /** The session's consent to what a repository's settings loosen (flags/settings.ts). */
  consent?(pending: Loosening[]): Promise<boolean>;
  /** The mode's permission mode as hooks read it (`permission_mode`); --permission-mode's by default. */
  permissionMode?(settings: SettingsHooks | undefined): string | undefined;
  /** The mode's question about a domain a sandboxed command asks for that no settings list names; absent (-p): refused. */
  askDomain?(host: string): Promise<boolean>;
  /** SessionEnd's `reason` when the run ends (Claude Code: `other`, or `prompt_input_exit` in the session). */
  endReason: string;
}

/** A usage error of any mode's start: exit 2; anything else that stops the start: 1. */
export function startExitCode(err: unknown): 1 | 2 {
  if (err instanceof SessionError) return err.usage ? 2 : 1;
  // A flag's value that gives nothing usable (--mcp-config, --agents) is a usage error.
  return err instanceof McpConfigFlagError || err instanceof AgentsOptionError ? 2 : 1;
}

/** One run from its start to its end. */
export class Run {
  private ended: Promise<void> | undefined;
  /** The OS sandboxes of Bash and stdio servers, when the settings enable them and they could start (lib/agent/sandboxing). */
  sandboxes: RunSandboxes = {};

  private constructor(
    readonly args: CliArgs,
    readonly cwd: string,
    readonly session: OpenedSession,
    readonly settings: SettingsHooks | undefined,
    private readonly opts: RunOpenOptions,
    /** The process environment as the run started, before settings `env` was applied. */
    readonly launchEnv: Readonly<Record<string, string | undefined>>,
  ) {
    // Whichever way the run ends (a signal, Ctrl-C twice, EOF), SessionEnd runs once.
    if (settings) onShutdown(() => this.sessionEnd());
  }

  /**
   * Opens the session and loads the settings. A number is the exit code of a run that cannot
   * start, its one line already written: 2 for a usage error, 1 otherwise.
   */
  static async open(args: CliArgs, opts: RunOpenOptions): Promise<Run | number> {
    const launchEnv = { ...process.env };
    let session: OpenedSession;
    try {
      session = openRunSession(args, opts.cwd, opts.warn, opts.resume ?? args.resume);
    } catch (err) {
      if (!(err instanceof SessionError)) throw err;
      opts.warn(`error: ${err.message}`);
      return startExitCode(err);
    }
    const loaded = await loadSettings(args, opts.cwd, opts.warn, opts.consent);
    if (loaded.usage) {
      opts.warn(`error: ${loaded.usage}`);
      return 2;
    }
    // --- OS sandbox: loaded only when a settings file enables it; one that must run and cannot is exit 1 before any model call.
    let sandboxes: RunSandboxes = {};
    if (loaded.hooks?.settings.effective.sandbox && loaded.hooks.settings.effective.files.some((f) => f.doc.sandbox)) {
      const { setupSandbox } = await import("../agent/sandboxing/setup.ts");
      const made = await setupSandbox(loaded.hooks, {
        cwd: opts.cwd,
        interactive: opts.consent !== undefined,
        env: launchEnv,
        warn: opts.warn,
        askDomain: opts.askDomain && ((host) => opts.askDomain!(host)),
      });
      if ("exit" in made) return made.exit;
      sandboxes = made;
    }
    // --- end of the sandbox's part
    const run = new Run(args, opts.cwd, session, loaded.hooks, opts, launchEnv);
    run.sandboxes = sandboxes;
    if (args.resume !== undefined || args.continue) run.settings?.restart("resume");
    run.identify();
    return run;
  }

  get conversation() {
    return this.session.conversation;
  }

  /** The runtime options from the flags, the saved model and the settings, with the mode's `callbacks`. */
  options(callbacks: RunCallbacks): RuntimeOptions {
    const options = {
      ...runtimeOptions(this.args, this.cwd, callbacks, this.session.savedModel, this.settings),
      sandbox: this.sandboxes.bash,
      serverSandbox: this.sandboxes.servers,
    };
    // What asks for a tool is the environment the run started with, not what settings `env` added since.
    return options.offer ? { ...options, offer: { ...options.offer, env: this.launchEnv } } : options;
  }

  /**
   * Starts the runtime (every server's handshake, or in the background for the session).
   * @throws McpConfigFlagError (exit 2) or ModelError (exit 1): startExitCode says which.
   */
  startRuntime(options: RuntimeOptions): Promise<AgentRuntime> {
    return startRuntime(options);
  }

  /** The conversation starts with `runtime`'s model: the transcript's header, the MCP names pinned, hooks told the session. */
  begin(runtime: AgentRuntime): void {
    this.session.start(runtime.model.model);
    // The task list's folder is this conversation's (~/.claude/tasks/<session>/).
    bindTaskList(() => this.session.conversation.sessionId);
    runtime.pinRoutes(this.session.conversation.routes);
    this.identify();
  }

  /** What every hook's stdin says of the session (its id may change when the conversation starts). */
  identify(): void {
    const mode = this.opts.permissionMode ? this.opts.permissionMode(this.settings) : this.args.permissionMode;
    this.settings?.identify(this.session.conversation.sessionId, this.session.path, mode);
  }

  /** SessionEnd hooks (once), then every server shut down. */
  async end(): Promise<void> {
    await this.sessionEnd();
    await shutdown();
  }

  private sessionEnd(): Promise<void> {
    this.ended ??= this.settings?.sessionEnd(this.opts.endReason) ?? Promise.resolve();
    return this.ended;
  }
}

/** Errors of a runtime start that are the user's to fix: one line, an exit code, no stack. */
export function isStartError(err: unknown): err is ModelError | McpConfigFlagError | AgentsOptionError {
  return err instanceof ModelError || err instanceof McpConfigFlagError || err instanceof AgentsOptionError;
}
