/**
 * One run's sandbox as the tools see it: which sandbox a Bash call runs in (ToolContext.sandbox),
 * and what /status and the init event say of it.
 */
import type { CommandSandbox, Sandbox } from "../../sandbox/sandbox.ts";
import type { SandboxSettings } from "../settings/sandbox-keys.ts";

export class RunSandbox {
  constructor(
    readonly sandbox: Sandbox,
    readonly settings: SandboxSettings,
  ) {}

  /** The sandbox a Bash call with `input` runs in. */
  readonly forBash = (_input: Record<string, unknown>): CommandSandbox | undefined => this.sandbox;
}
