/**
 * What a person sees when a tool crashed with a bug (a TypeError in our code, not a ToolError):
 * the stack under --debug at once, and one line at the end of the run with the count, so a
 * crash is never silent even when the model carried on.
 */
import type { ToolUseBlock } from "../messages.ts";
import { errorMessage } from "../../shared/values.ts";

export interface ToolBugReport {
  /** The loop's `onToolBug` hook. */
  onToolBug(call: ToolUseBlock, error: unknown): void;
  /** `N tool call(s) failed with an internal error …`, or undefined when none did. */
  summary(): string | undefined;
}

export function toolBugReport(log: (line: string) => void, debug: boolean): ToolBugReport {
  let count = 0;
  return {
    onToolBug(call, error) {
      count++;
      if (debug) log(`tool ${call.name} crashed: ${error instanceof Error && error.stack ? error.stack : errorMessage(error)}`);
    },
    summary() {
      if (count === 0) return undefined;
      const calls = count === 1 ? "1 tool call" : `${count} tool calls`;
      return `${calls} failed with an internal error (a bug in the agent${debug ? "" : "; --debug shows the stack"})`;
    },
  };
}
