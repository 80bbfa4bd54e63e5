/**
 * The session's permission mode as it changes: Shift+Tab cycles default → acceptEdits → plan (and
 * back), as in Claude Code; a session started in bypassPermissions or dontAsk keeps that mode in
 * its cycle. An approved plan switches the mode (plan-approval.ts). The line above the prompt says
 * which mode is on, except default.
 */
import type { PermissionMode } from "../../../agent/permissions/modes.ts";

const CYCLE: PermissionMode[] = ["default", "acceptEdits", "plan"];

const LABELS: Record<PermissionMode, string | undefined> = {
  default: undefined,
  acceptEdits: "⏵⏵ accept edits on",
  plan: "⏸ plan mode on",
  bypassPermissions: "⏵⏵ bypass permissions on",
  dontAsk: "dont-ask mode on",
};

export class SessionMode {
  private readonly cycle: PermissionMode[];

  constructor(public current: PermissionMode) {
    this.cycle = CYCLE.includes(current) ? CYCLE : [...CYCLE, current];
  }

  /** Shift+Tab: the next mode of the cycle. */
  next(): PermissionMode {
    const at = this.cycle.indexOf(this.current);
    this.current = this.cycle[(at + 1) % this.cycle.length]!;
    return this.current;
  }

  /** The line above the prompt; undefined in default mode. */
  line(): string | undefined {
    const label = LABELS[this.current];
    return label && `${label} (shift+tab to cycle)`;
  }
}
