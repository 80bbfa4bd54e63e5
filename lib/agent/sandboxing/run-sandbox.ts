/**
 * One run's sandbox as the tools and the permission decision see it: which sandbox a Bash call
 * runs in (ToolContext.sandbox: none for `excludedCommands` and an allowed `dangerouslyDisableSandbox`),
 * the facts the one decision weighs (policy/decide.ts), and what /status and the init event say.
 */
import type { CommandSandbox, Sandbox } from "../../sandbox/sandbox.ts";
import type { SandboxSettings } from "../settings/sandbox-keys.ts";
import type { SettingsHooks } from "../policy/turn-hooks.ts";
import type { SandboxFacts } from "../policy/decide.ts";
import { excludedFromSandbox } from "./excluded.ts";

export class RunSandbox {
  constructor(
    readonly sandbox: Sandbox,
    readonly settings: SandboxSettings,
  ) {}

  /** `dangerouslyDisableSandbox: true` is honoured (then always asked about) only with allowUnsandboxedCommands. */
  private escapes(input: Record<string, unknown>): boolean {
    return input.dangerouslyDisableSandbox === true && this.settings.allowUnsandboxedCommands;
  }

  /** Whether a Bash call with `input` runs outside: an honoured escape, or every command of it excluded. */
  private outside(input: Record<string, unknown>): boolean {
    return this.escapes(input) || excludedFromSandbox(String(input.command ?? ""), this.settings.excludedCommands);
  }

  /** The sandbox a Bash call with `input` runs in; undefined: outside. */
  readonly forBash = (input: Record<string, unknown>): CommandSandbox | undefined => (this.outside(input) ? undefined : this.sandbox);

  /** What the permission decision weighs for a call: Bash only. */
  readonly facts = (toolName: string, input: Record<string, unknown>): SandboxFacts | undefined => {
    if (toolName !== "Bash") return undefined;
    const inside = !this.outside(input);
    return { escape: this.escapes(input), autoAllow: inside && this.settings.autoAllowBashIfSandboxed };
  };
}

/**
 * The init event's `sandbox_enabled` (Claude Code's field): whether Bash runs sandboxed, present
 * only when some settings file says `sandbox.enabled`, so a run without sandbox keys keeps its events as they were.
 */
export function sandboxInitField(opts: { settings?: SettingsHooks; sandbox?: RunSandbox }): { sandbox_enabled?: boolean } {
  if (opts.settings?.settings.effective.sandbox.enabled === undefined) return {};
  return { sandbox_enabled: opts.sandbox !== undefined };
}
