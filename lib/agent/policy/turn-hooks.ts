/**
 * The settings' points in a run (Claude Code hooks.md): loading (env applied, `model` resolved,
 * `defaultMode` checked), then, for every mode's turns (lib/agent/turn/turn.ts), SessionStart,
 * UserPromptSubmit, Stop, PreCompact and SessionEnd (the permission gate, gate.ts, reads `settings`).
 * Mode-independent: nothing here writes to stdout.
 */
import type { ContentBlock } from "../messages.ts";
import { RunSettings, type SettingsLoadOptions } from "./run-settings.ts";
import { applySettingsEnv } from "../settings/env.ts";
import { settingsModel } from "../settings/model-setting.ts";
import type { ToolRoute } from "../permissions/rules.ts";
import { PERMISSION_MODES, type PermissionMode } from "../permissions/modes.ts";
import type { SearchExclusions } from "../../tools/tool.ts";
import { searchExclusions } from "../permissions/search-exclusions.ts";

export { SettingsFlagError } from "../settings/files.ts";

/** Modes a settings file may choose (permission-modes.md); `auto` is not ours. */
const FILE_MODES = new Set<string>(PERMISSION_MODES);

/** What UserPromptSubmit said: drop the prompt or stop (a message for the user), or add context. */
export type PromptVerdict = { drop: string } | { stop: string } | { context: ContentBlock[] };

/**
 * Loads the run's settings and applies their `env` to process.env (env.ts); undefined when no
 * settings file exists, so that nothing changes at all.
 * @throws SettingsFlagError for a bad `--settings` or `--setting-sources`.
 */
export function prepareSettings(opts: SettingsLoadOptions): SettingsHooks | undefined {
  const settings = RunSettings.load(opts);
  if (settings.empty) return undefined;
  applySettingsEnv(settings.effective.env);
  return new SettingsHooks(settings, opts.warn);
}

/** One run's settings as the turn uses them. */
export class SettingsHooks {
  /** The settings' model, resolved (its place in the precedence is runtime-options.ts's). */
  readonly model: string | undefined;
  /** `permissions.defaultMode`, when it is one we have. */
  readonly defaultMode: PermissionMode | undefined;
  /** SessionStart's source for the next turn (`startup`, `resume`, `clear`, `compact`); undefined once it fired. */
  private startSource: string | undefined = "startup";

  constructor(
    readonly settings: RunSettings,
    warn: (line: string) => void,
  ) {
    const e = settings.effective;
    this.model = e.model && settingsModel(e.model.value, e.model.file.path, warn);
    const mode = e.defaultMode?.value;
    if (mode !== undefined && !FILE_MODES.has(mode)) warn(`${e.defaultMode!.file.path}: permissions.defaultMode "${mode}" is not supported here; ignored`);
    else if (mode === "bypassPermissions" && e.bypassDisabled) warn(`${e.defaultMode!.file.path}: bypassPermissions is disabled by managed settings; ignored`);
    else this.defaultMode = mode as SettingsHooks["defaultMode"];
  }

  /** A bare deny takes the tool off every request. */
  readonly removes = (name: string, route?: ToolRoute): boolean => this.settings.rules.removes(name, route);

  /** A settings allow rule (`Skill(name)`, `Skill`) lets the skill load without a question; deny and ask rules come first. */
  readonly allowsSkill = (name: string): boolean => this.settings.rules.decide("Skill", { skill: name })?.behavior === "allow";

  /** What Grep and Glob leave out of their searches: the paths Read deny rules cover; undefined when none does. */
  searchExclusions(): SearchExclusions | undefined {
    const globs = this.settings.rules.readDenyGlobs();
    return globs.length ? searchExclusions(globs, this.readDenied) : undefined;
  }

  /** An `@file` mention a Read deny covers is not attached. */
  readonly readDenied = (path: string): boolean => this.settings.rules.readDenied(path) !== undefined;

  /** What every hook's stdin says of the session (hooks.md, "Common input fields"). */
  identify(sessionId: string, transcriptPath: string | undefined, permissionMode: string | undefined): void {
    this.settings.session = { session_id: sessionId, transcript_path: transcriptPath ?? "", permission_mode: permissionMode ?? this.defaultMode ?? "default" };
  }

  /** A new session id (after /clear): hooks see it from now on. */
  follow(sessionId: string): void {
    this.settings.session = { ...this.settings.session, session_id: sessionId };
  }

  /** The next turn's SessionStart fires with `source` (a resumed or cleared session). */
  restart(source: string): void {
    this.startSource = source;
  }

  /** SessionStart, once per session: the text blocks its hooks add for the model. */
  async sessionStart(notice: (line: string) => void): Promise<ContentBlock[]> {
    const source = this.startSource;
    this.startSource = undefined;
    if (source === undefined || !this.settings.listens("SessionStart")) return [];
    const out = await this.settings.fire("SessionStart", source, { source });
    for (const line of out.notices) notice(line);
    return out.context.map((text) => ({ type: "text", text }));
  }

  async promptSubmit(prompt: string, notice: (line: string) => void): Promise<PromptVerdict> {
    if (!this.settings.listens("UserPromptSubmit")) return { context: [] };
    const out = await this.settings.fire("UserPromptSubmit", undefined, { prompt });
    for (const line of out.notices) notice(line);
    if (out.stop !== undefined) return { stop: `Operation stopped by hook: ${out.stop}` };
    // Claude Code's words, the hook's stderr kept as it came.
    if (out.block !== undefined) return { drop: `UserPromptSubmit operation blocked by hook:\n${out.block}\n\nOriginal prompt: ${prompt}` };
    return { context: out.context.map((text) => ({ type: "text", text })) };
  }

  /**
   * Stop, when the model has finished: the feedback to give it for another turn (a block), a
   * `continue: false` reason, or nothing. `active` is true once a Stop hook already kept the turn going.
   */
  async stop(active: boolean, lastText: string, notice: (line: string) => void): Promise<{ again?: string; stop?: string }> {
    if (!this.settings.listens("Stop")) return {};
    const out = await this.settings.fire("Stop", undefined, { stop_hook_active: active, last_assistant_message: lastText });
    for (const line of out.notices) notice(line);
    if (out.stop !== undefined) return { stop: out.stop };
    if (out.block !== undefined) return { again: `Stop hook feedback:\n${out.block.trimEnd()}` };
    return {};
  }

  /** SubagentStart, as a subagent starts (matched on its type); its output is only notices. */
  async subagentStart(agent: { id: string; type: string }, notice: (line: string) => void): Promise<void> {
    if (!this.settings.listens("SubagentStart")) return;
    const out = await this.settings.fire("SubagentStart", agent.type, { agent_id: agent.id, agent_type: agent.type });
    for (const line of out.notices) notice(line);
  }

  /** SubagentStop, when a subagent has finished (matched on its type); its output is only notices. */
  async subagentStop(agent: { id: string; type: string }, lastText: string, notice: (line: string) => void, transcriptPath?: string): Promise<void> {
    if (!this.settings.listens("SubagentStop")) return;
    const out = await this.settings.fire("SubagentStop", agent.type, {
      stop_hook_active: false,
      agent_id: agent.id,
      agent_type: agent.type,
      ...(transcriptPath ? { agent_transcript_path: transcriptPath } : {}),
      last_assistant_message: lastText,
    });
    for (const line of out.notices) notice(line);
  }

  /** PreCompact (`trigger`: manual or auto), before a compaction starts; its output is only notices. */
  async preCompact(trigger: "manual" | "auto", instructions: string, notice: (line: string) => void): Promise<void> {
    if (!this.settings.listens("PreCompact")) return;
    const out = await this.settings.fire("PreCompact", trigger, { trigger, custom_instructions: instructions });
    for (const line of out.notices) notice(line);
  }

  /** Notification (`notification_type`, `message`) when the session waits for the user. */
  async notify(type: string, message: string): Promise<void> {
    if (this.settings.listens("Notification")) await this.settings.fire("Notification", type, { notification_type: type, message });
  }

  /** SessionEnd (`reason`: clear, logout, prompt_input_exit, other), within its 1.5 s budget; its output is ignored. */
  async sessionEnd(reason: string): Promise<void> {
    if (this.settings.listens("SessionEnd")) await this.settings.fire("SessionEnd", reason, { reason });
  }
}
