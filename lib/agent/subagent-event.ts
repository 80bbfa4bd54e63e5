/**
 * What a running subagent tells the mode that shows it, in the order it happens: it started, each
 * message of its conversation, and how it ended. stream-json and host mode write these as Claude
 * Code's `system` `task_started` / `task_notification` events and messages with
 * `parent_tool_use_id` (CC-AGENT-NOTES §1.8); the session may draw them under the Agent call.
 */
import type { MessageParam } from "./messages.ts";

interface SubagentBase {
  agentId: string;
  /** The parent's Agent tool_use id. */
  toolUseId: string;
  subagentType: string;
  description: string;
}

export type SubagentEvent =
  | (SubagentBase & { type: "started"; prompt: string; depth: number })
  | (SubagentBase & { type: "message"; message: MessageParam })
  | (SubagentBase & {
      type: "finished";
      status: "completed" | "failed" | "stopped";
      /** The report, or why it failed. */
      summary: string;
      usage: { total_tokens: number; tool_uses: number; duration_ms: number };
      /** Its transcript file, when the session is saved. */
      outputFile?: string;
    });
