/**
 * The host's control requests (the Agent SDK's `SDKControlRequest` subtypes we serve):
 * `initialize`, `interrupt`, `set_permission_mode`, `set_model`, `mcp_status`, `mcp_reconnect`,
 * `mcp_toggle`, `mcp_message`, `stop_task` and `rewind_files`. Each gets exactly one `control_response` with its
 * `request_id`: success with its payload, or an error naming the subtype. An unknown subtype is
 * an error answer, never silence.
 */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import { DEFAULT_MODEL } from "../../agent/model/model.ts";
import { listCustomCommands } from "../../agent/input/custom-commands.ts";
import { PERMISSION_MODES, type PermissionMode } from "../../agent/permissions/modes.ts";
import type { CliArgs } from "../flags/args.ts";
import type { ToolState } from "../../tools/tool-state.ts";
import type { HostChannel } from "./channel.ts";
import { PRINT_BUILTINS } from "../commands/builtins.ts";
import { errorMessage } from "../../shared/values.ts";
import type { FileCheckpoints } from "../../agent/checkpoints/tracker.ts";
import { rewindFilesAnswer } from "./rewind-files.ts";

/** What the control requests act on, once the runtime is up. */
export interface HostState {
  runtime: AgentRuntime;
  args: CliArgs;
  /** undefined: no --permission-mode and no prompt tool, so every tool runs (print mode's rule). */
  mode: PermissionMode | undefined;
  /** The running turn's controller; `interrupt` aborts it. */
  current: AbortController | undefined;
  /** What the tools remember across the turns of this conversation (Bash's directory, files seen). */
  tools: ToolState;
  /** File checkpoints, when on (the SDK's enableFileCheckpointing). */
  checkpoints?: FileCheckpoints;
}

/** The abort reason of a turn the host interrupted. */
export class TurnInterrupted extends Error {
  constructor() {
    super("interrupted by the host");
  }
}

/** Slash commands a user message may start with, without the slash. */
export function slashCommands(state: HostState): string[] {
  const prompts = (state.runtime.registry?.snapshot() ?? []).flatMap((s) =>
    s.status === "connected" ? s.prompts.map((p) => `mcp__${s.name}__${p.name}`) : [],
  );
  return [...PRINT_BUILTINS, ...listCustomCommands(state.runtime.opts.cwd).map((c) => c.name), ...prompts];
}

/** The success payload of `initialize` (the SDK's `SDKControlInitializeResponse`). */
export function initializeResponse(state: HostState): object {
  const model = state.runtime.model.model;
  return {
    commands: slashCommands(state).map((name) => ({ name, description: "", argumentHint: "" })),
    // The SDK's supportedAgents(): name, description and model of each agent type.
    agents: (state.runtime.subagents?.agents ?? []).map((a) => ({ name: a.name, description: a.description, ...(a.model ? { model: a.model } : {}) })),
    output_style: "default",
    available_output_styles: ["default"],
    models: [{ value: model, displayName: model, description: "" }],
    account: {},
    pid: process.pid,
  };
}

/** Each server as `mcp_status` reports it (the SDK's `McpServerStatus`). */
export function serverStatuses(state: HostState): object[] {
  return (state.runtime.registry?.snapshot() ?? []).map((s) => ({
    name: s.name,
    status: state.runtime.disabled.has(s.name) ? "disabled" : s.status,
    ...(s.serverInfo ? { serverInfo: { name: s.serverInfo.name, version: s.serverInfo.version } } : {}),
    ...(s.error ? { error: s.error } : {}),
    config: { type: s.config.type },
    tools: s.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) })),
  }));
}

/** Answers one control request (see the file comment). Never throws. */
export async function handleControl(
  line: { request_id: string; request: { subtype: string; [k: string]: unknown } },
  state: HostState | undefined,
  channel: HostChannel,
): Promise<void> {
  const { request } = line;
  try {
    channel.respond(line.request_id, { response: await answer(request, state, channel) });
  } catch (err) {
    channel.respond(line.request_id, { error: `${request.subtype}: ${errorMessage(err)}` });
  }
}

async function answer(request: { subtype: string; [k: string]: unknown }, state: HostState | undefined, channel: HostChannel): Promise<object> {
  if (request.subtype === "mcp_message") {
    const server = String(request.server_name);
    if (!channel.deliver(server, request.message)) throw new Error(`no sdk MCP server named "${server}" is running`);
    return {};
  }
  if (!state) throw new Error("not ready: the session is still starting");
  const { runtime } = state;
  switch (request.subtype) {
    case "initialize":
      throw new Error("already initialized");
    case "interrupt":
      state.current?.abort(new TurnInterrupted());
      return {};
    case "set_permission_mode": {
      const mode = request.mode;
      if (!PERMISSION_MODES.includes(mode as PermissionMode))
        throw new Error(`unknown permission mode ${JSON.stringify(mode)} (${PERMISSION_MODES.join(", ")})`);
      state.mode = mode as PermissionMode;
      return {};
    }
    case "set_model": {
      const id = typeof request.model === "string" && request.model ? request.model : state.args.model || process.env.ANTHROPIC_MODEL || DEFAULT_MODEL;
      runtime.setModel(runtime.createModel(id));
      return {};
    }
    case "mcp_status":
      return { mcpServers: serverStatuses(state) };
    case "mcp_reconnect": {
      if (!runtime.registry) throw new Error(`no MCP server named "${String(request.serverName)}"`);
      const s = await runtime.registry.reconnect(String(request.serverName));
      if (s.status !== "connected") throw new Error(`MCP server "${s.name}" failed to start: ${s.error ?? "unknown error"}`);
      return {};
    }
    case "mcp_toggle": {
      const name = String(request.serverName);
      if (!runtime.registry?.snapshot().some((s) => s.name === name)) throw new Error(`no MCP server named "${name}"`);
      if (request.enabled === false) runtime.disabled.add(name);
      else runtime.disabled.delete(name);
      return {};
    }
    case "stop_task": {
      // The SDK's stopTask: the same register and checks as the model's TaskStop.
      const tasks = runtime.backgroundWork?.registry;
      if (!tasks) throw new Error("this run has no background tasks");
      await tasks.stop(String(request.task_id ?? ""));
      return {};
    }
    case "rewind_files":
      return rewindFilesAnswer(state.checkpoints, request.user_message_id, request.dry_run === true);
    default:
      throw new Error(`unsupported control request subtype: ${request.subtype}`);
  }
}
