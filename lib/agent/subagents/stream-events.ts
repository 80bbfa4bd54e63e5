/**
 * A subagent's events as Claude Code's stream-json writes them (CC-AGENT-NOTES §1.8), for -p's
 * stream-json and host mode: `system` `task_started`, each message of the subagent's conversation
 * with `parent_tool_use_id` (the Agent call) and `agent_id`, and `system` `task_notification`.
 * Without `session_id`: each writer adds its own.
 */
import type { SubagentEvent } from "../subagent-event.ts";

export function subagentStreamEvent(e: SubagentEvent): object {
  switch (e.type) {
    case "started":
      return {
        type: "system",
        subtype: "task_started",
        task_id: e.agentId,
        tool_use_id: e.toolUseId,
        description: e.description,
        subagent_type: e.subagentType,
        is_backgrounded: false,
        spawn_depth: e.depth,
        task_type: "local_agent",
        prompt: e.prompt,
      };
    case "message":
      return {
        type: e.message.role,
        message: e.message.role === "assistant" ? { ...e.message, type: "message" } : e.message,
        parent_tool_use_id: e.toolUseId,
        agent_id: e.agentId,
        subagent_type: e.subagentType,
        task_description: e.description,
      };
    case "finished":
      return {
        type: "system",
        subtype: "task_notification",
        task_id: e.agentId,
        tool_use_id: e.toolUseId,
        status: e.status,
        ...(e.outputFile ? { output_file: e.outputFile } : {}),
        summary: e.summary,
        usage: e.usage,
      };
  }
}
