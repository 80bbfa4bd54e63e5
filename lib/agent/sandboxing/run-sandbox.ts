/**
 * One run's sandbox as the tools see it: which sandbox a Bash call runs in (ToolContext.sandbox),
 * and what /status and the init event say of it.
 */
import type { CommandSandbox, Sandbox } from "../../sandbox/sandbox.ts";
import type { SandboxSettings } from "../settings/sandbox-keys.ts";
import type { SettingsHooks } from "../policy/turn-hooks.ts";

export class RunSandbox {
  constructor(
    readonly sandbox: Sandbox,
    readonly settings: SandboxSettings,
  ) {}

  /** The sandbox a Bash call with `input` runs in. */
  readonly forBash = (_input: Record<string, unknown>): CommandSandbox | undefined => this.sandbox;
}

/**
 * The init event's `sandbox_enabled` (Claude Code's field): whether Bash runs sandboxed, present
 * only when some settings file says `sandbox.enabled`, so a run without sandbox keys keeps its events as they were.
 */
export function sandboxInitField(opts: { settings?: SettingsHooks; sandbox?: RunSandbox }): { sandbox_enabled?: boolean } {
  if (opts.settings?.settings.effective.sandbox.enabled === undefined) return {};
  return { sandbox_enabled: opts.sandbox !== undefined };
}
