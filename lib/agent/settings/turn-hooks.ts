/**
 * The settings' points in a run outside tool calls (Claude Code hooks.md): loading (env applied,
 * `model` resolved, `defaultMode` checked), SessionStart, UserPromptSubmit, Stop, PreCompact and SessionEnd.
 * Mode-independent: each mode calls these around its own turn, and words nothing for stdout.
 */
import type { ContentBlock } from "../messages.ts";
import { RunSettings, type SettingsLoadOptions } from "./engine.ts";
import { applySettingsEnv } from "./env.ts";
import { settingsModel } from "./model.ts";

/** Modes a settings file may choose (permission-modes.md); `plan`, `auto` and `dontAsk` are not ours. */
const FILE_MODES = new Set(["default", "acceptEdits", "bypassPermissions"]);

export interface PreparedSettings {
  settings: RunSettings;
  /** The settings' model, resolved (its place in the precedence is the caller's). */
  model?: string;
  /** `permissions.defaultMode`, when it is one we have. */
  defaultMode?: "default" | "acceptEdits" | "bypassPermissions";
}

/**
 * Loads the run's settings and applies their `env` to process.env (env.ts); undefined when no
 * settings file exists, so that nothing changes at all.
 * @throws SettingsFlagError for a bad `--settings` or `--setting-sources`.
 */
export function prepareSettings(opts: SettingsLoadOptions): PreparedSettings | undefined {
  const settings = RunSettings.load(opts);
  if (settings.empty) return undefined;
  const e = settings.effective;
  applySettingsEnv(e.env);
  const model = e.model && settingsModel(e.model.value, e.model.file.path, opts.warn);
  let defaultMode: PreparedSettings["defaultMode"];
  if (e.defaultMode) {
    const mode = e.defaultMode.value;
    if (!FILE_MODES.has(mode)) opts.warn(`${e.defaultMode.file.path}: permissions.defaultMode "${mode}" is not supported here; ignored`);
    else if (mode === "bypassPermissions" && e.bypassDisabled)
      opts.warn(`${e.defaultMode.file.path}: bypassPermissions is disabled by managed settings; ignored`);
    else defaultMode = mode as PreparedSettings["defaultMode"];
  }
  return { settings, model, defaultMode };
}

/** SessionStart (`source`: startup, resume, clear, compact): the text blocks its hooks add for the model. */
export async function sessionStart(settings: RunSettings, source: string, notice: (line: string) => void): Promise<ContentBlock[]> {
  if (!settings.listens("SessionStart")) return [];
  const out = await settings.fire("SessionStart", source, { source });
  for (const line of out.notices) notice(line);
  return out.context.map((text) => ({ type: "text", text }));
}

/** What UserPromptSubmit said: drop the prompt (with the user's message), stop the run, or add context. */
export type PromptVerdict = { drop: string } | { stop: string } | { context: ContentBlock[] };

export async function promptSubmit(settings: RunSettings, prompt: string, notice: (line: string) => void): Promise<PromptVerdict> {
  if (!settings.listens("UserPromptSubmit")) return { context: [] };
  const out = await settings.fire("UserPromptSubmit", undefined, { prompt });
  for (const line of out.notices) notice(line);
  if (out.stop !== undefined) return { stop: `Operation stopped by hook: ${out.stop}` };
  if (out.block !== undefined) return { drop: `UserPromptSubmit operation blocked by hook:\n${out.block}\n\nOriginal prompt: ${prompt}` };
  return { context: out.context.map((text) => ({ type: "text", text })) };
}

/**
 * Stop, when the model has finished: the feedback to give it for another turn (a block), a
 * `continue: false` reason, or nothing. `active` is true once a Stop hook already kept the turn going.
 */
export async function stopHook(
  settings: RunSettings,
  active: boolean,
  lastText: string,
  notice: (line: string) => void,
): Promise<{ again?: string; stop?: string }> {
  if (!settings.listens("Stop")) return {};
  const out = await settings.fire("Stop", undefined, { stop_hook_active: active, last_assistant_message: lastText });
  for (const line of out.notices) notice(line);
  if (out.stop !== undefined) return { stop: out.stop };
  if (out.block !== undefined) return { again: `Stop hook feedback:\n${out.block.trimEnd()}` };
  return {};
}

/** SessionEnd (`reason`: clear, logout, prompt_input_exit, other), within its 1.5 s budget; its output is ignored. */
export async function sessionEnd(settings: RunSettings, reason: string): Promise<void> {
  if (!settings.listens("SessionEnd")) return;
  await settings.fire("SessionEnd", reason, { reason });
}

/** PreCompact (`trigger`: manual or auto), before a compaction starts; its output is only notices. */
export async function preCompact(settings: RunSettings, trigger: "manual" | "auto", instructions: string, notice: (line: string) => void): Promise<void> {
  if (!settings.listens("PreCompact")) return;
  const out = await settings.fire("PreCompact", trigger, { trigger, custom_instructions: instructions });
  for (const line of out.notices) notice(line);
}
