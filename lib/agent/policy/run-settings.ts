/**
 * The settings of one run, loaded once (files.ts → merge.ts), with its compiled permission rules
 * (rules.ts) and command hooks (hooks.ts): the one object every mode asks. Loading reads at most
 * the five fixed settings files and `~/.claude.json`; nothing starts until a hook fires.
 */
import { homeDir } from "../../shared/claude-home.ts";
import { resolve } from "node:path";
import { hookOutcome, type HookOutcome } from "../hooks/hook-outcome.ts";
import { type HookCommand, type HookEvent, matcherMatches, parseHooks, runHookCommands, SESSION_END_BUDGET_MS } from "../hooks/hooks.ts";
import { readSettingsFiles, type SettingsFile } from "../settings/files.ts";
import { type EffectiveSettings, mergeSettings } from "../settings/merge.ts";
import { compileRules, PermissionRules } from "../permissions/rules.ts";
import { trustFile, workspaceTrusted } from "../settings/workspace-trust.ts";
import { needsTrust } from "../settings/loosening.ts";
import type { FlagRules } from "../permissions/flag-rules.ts";
import type { RuleText } from "../settings/merge.ts";

export interface SettingsLoadOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** `--settings` and `--setting-sources` as given. */
  flag?: string;
  sources?: string;
  /** The settings files, when the caller already read them (so a run reads each once). */
  files?: SettingsFile[];
  /** `MCP_REQUIRE_APPROVAL=1` in -p: the repository's files loosen nothing without trust. */
  requireApproval?: boolean;
  /** The user approved the repository's files as they are (consent.ts): as good as a trusted folder. */
  approved?: boolean;
  /** The warning's words for that hold (merge.ts). */
  gateReason?: string;
  warn(line: string): void;
  /** The scoped rules of --allowedTools/--disallowedTools (permissions/flag-rules.ts): rules like any file's. */
  flagRules?: FlagRules;
  /** False (-p, host): hooks of the user's own settings add no context for the model; they still run. */
  homeContext?: boolean;
  /** Unit tests only: a managed folder other than the platform's (null: none). */
  managedDir?: string | null;
}

/** What hooks get on stdin besides their event's fields (hooks.md, "Common input fields"). */
export interface HookSession {
  session_id: string;
  transcript_path: string;
  permission_mode: string;
}

export class RunSettings {
  readonly rules: PermissionRules;
  readonly hooks: HookCommand[];
  session: HookSession = { session_id: "", transcript_path: "", permission_mode: "default" };
  /** Settings files whose hooks' output is not context for the model (the user's, in -p). */
  private quiet = new Set<string>();

  private constructor(
    readonly effective: EffectiveSettings,
    readonly cwd: string,
    readonly home: string,
    warn: (line: string) => void,
  ) {
    this.rules = new PermissionRules(compileRules(effective.rules, { cwd, home, warn }), { cwd, home, warn });
    this.hooks = parseHooks(effective.hooks, warn);
  }

  /**
   * Reads and merges the settings files of `opts.cwd`.
   * @throws SettingsFlagError for a `--settings` file that is missing or not JSON, or a bad `--setting-sources`.
   */
  static load(opts: SettingsLoadOptions): RunSettings {
    const env = opts.env ?? process.env;
    const cwd = resolve(opts.cwd);
    const home = homeDir(env);
    const files = opts.files ?? readSettingsFiles({ cwd, env, flag: opts.flag, sources: opts.sources, warn: opts.warn, managedDir: opts.managedDir });
    // ~/.claude.json is read only when a repository's file has something trust would unlock.
    const held = files.some((f) => (f.scope === "project" || f.scope === "local") && needsTrust(f.doc, opts.requireApproval === true));
    const file = trustFile(env);
    const trusted = held && (opts.approved === true || workspaceTrusted(cwd, file));
    const effective = mergeSettings(files, {
      trusted,
      requireApproval: opts.requireApproval === true,
      trustFile: file,
      cwd,
      warn: opts.warn,
      gateReason: opts.gateReason,
    });
    const flags = flagRuleTexts(opts.flagRules, cwd);
    if (flags.length) effective.rules = [...effective.rules, ...flags];
    const settings = new RunSettings(effective, cwd, home, opts.warn);
    if (opts.homeContext === false) settings.quiet = new Set(files.filter((f) => f.scope === "user").map((f) => f.path));
    return settings;
  }

  /** No file spoke: the run must be exactly as without settings. */
  get empty(): boolean {
    return this.effective.files.length === 0 && this.effective.rules.length === 0;
  }

  /** True when some hook listens to `event`. */
  listens(event: HookEvent): boolean {
    return this.hooks.some((h) => h.event === event);
  }

  /**
   * Runs the hooks of `event` whose matcher takes `query` (tool name, source, trigger or type)
   * with the common fields and `fields` on stdin, and folds what they said (hook-outcome.ts).
   */
  async fire(event: HookEvent, query: string | undefined, fields: Record<string, unknown>): Promise<HookOutcome> {
    const hooks = this.hooks.filter((h) => h.event === event && (query === undefined || matcherMatches(h.matcher, query)));
    if (!hooks.length) return { context: [], notices: [] };
    const input = { ...this.session, cwd: this.cwd, hook_event_name: event, ...fields };
    const runs = await runHookCommands(hooks, input, {
      cwd: this.cwd,
      env: { CLAUDE_PROJECT_DIR: this.cwd, CLAUDECODE: "1", ...(this.session.session_id ? { CLAUDE_CODE_SESSION_ID: this.session.session_id } : {}) },
      budgetMs: event === "SessionEnd" ? SESSION_END_BUDGET_MS : undefined,
    });
    const out = hookOutcome(event, query, runs);
    if (this.quiet.size && out.context.length)
      out.context = hookOutcome(
        event,
        query,
        runs.filter((r) => !this.quiet.has(r.hook.source)),
      ).context;
    return out;
  }
}

/**
 * The flags' rules as rule texts of their own source. Order among sources does not matter: deny
 * from any source beats ask, and ask beats allow (rules.ts). `/x` in a flag is relative to the
 * working directory, as for the command line in Claude Code.
 */
function flagRuleTexts(flags: FlagRules | undefined, cwd: string): RuleText[] {
  if (!flags) return [];
  const file = (path: string) => ({ scope: "flag" as const, path, root: cwd, doc: {} });
  const allow = file("--allowedTools");
  const deny = file("--disallowedTools");
  return [
    ...flags.deny.map((text) => ({ text, behavior: "deny" as const, file: deny })),
    ...flags.allow.map((text) => ({ text, behavior: "allow" as const, file: allow })),
  ];
}
