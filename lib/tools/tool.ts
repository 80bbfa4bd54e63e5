/**
 * The one shape every tool has, built-in or MCP. The agent loop knows tools only through this.
 */
import type { ImageBlock, TextBlock } from "../files/image.ts";
import type { DocumentBlock } from "../files/pdf.ts";
import type { ToolState } from "./tool-state.ts";
import type { CommandSandbox } from "../sandbox/sandbox.ts";

/** JSON Schema for a tool's input; the Messages API requires `"type": "object"` at the top. */
export interface InputSchema {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** An Anthropic content block that may appear inside a `tool_result`. */
export type ToolResultBlock = TextBlock | ImageBlock | DocumentBlock;

/** What a tool returns. `content` is a string or text/image blocks; `isError` becomes `is_error`. */
export interface ToolOutput {
  content: string | ToolResultBlock[];
  isError?: boolean;
  /**
   * Text blocks for the same user message, after every tool_result (the Messages API wants the
   * results first): what the Skill tool loads, as Claude Code sends it.
   */
  followUp?: TextBlock[];
}

/** What a search leaves out because the run's Read rules deny it (lib/agent/permissions/search-exclusions.ts). */
export interface SearchExclusions {
  /** ripgrep `--glob` patterns (without the `!`) relative to the searched folder `dir`. */
  globs(dir: string): string[];
  /** True when the absolute `path` is denied. */
  covers(path: string): boolean;
}

/**
 * Called around every change a built-in tool makes to a file (Edit, Write, NotebookEdit), so the
 * file can be kept as it was first (checkpoints). Neither call throws.
 */
export interface FileChangeHook {
  /** `path` (absolute) is about to change. */
  before(path: string): void;
  /** `path` now holds `bytes`. */
  after(path: string, bytes: Uint8Array): void;
  /** A shell command is about to run in `cwd` (Bash): what it may change is recorded first. */
  beforeShell?(cwd: string): void;
}

/** Per-call context: the working directory every relative path resolves against, and cancellation. */
export interface ToolContext {
  cwd: string;
  /** Aborted when the user interrupts the turn or the run is shutting down. */
  signal: AbortSignal;
  /**
   * Present when someone is watching (a terminal, a host): the tool may report how far it has got;
   * `kind` "task" marks an MCP task's status message (the host reports those as `tool_progress`).
   */
  onProgress?: (message: string, kind?: "task") => void;
  /** The conversation's tool state (Bash's directory, files seen); without it each call stands alone. */
  toolState?: ToolState;
  /** The call's `tool_use` id, for a question about it that must name it (the host's `can_use_tool`). */
  callId?: string;
  /** Paths the run's Read rules deny: Grep and Glob leave them out of the search itself. */
  excluded?: SearchExclusions;
  /** Checkpoints of files before they change; absent when they are off. */
  fileChange?: FileChangeHook;
  /**
   * Present when a person can be asked (the session, a host that answers `can_use_tool`): asks once
   * more about this call, for `reason` found while it runs (WebFetch's private address). Absent
   * (-p): nobody can say yes, so the tool refuses.
   */
  confirm?(reason: string): Promise<boolean>;
  /** The OS sandbox a Bash call with this input runs in; undefined (or absent): it runs outside (lib/sandbox). */
  sandbox?: (input: Record<string, unknown>) => CommandSandbox | undefined;
}

export interface Tool {
  /** Name as sent to the Messages API: `^[a-zA-Z0-9_-]{1,64}$`, unique. */
  name: string;
  description: string;
  inputSchema: InputSchema;
  /** True when the tool never changes anything, so several calls may run concurrently. */
  readOnly?: boolean;
  /**
   * False when the interactive session may run it without asking (it only reads); absent or true:
   * it asks first, unless --allowedTools or an "always" answer covers it. Print mode never asks.
   */
  asksPermission?: boolean;
  /**
   * True for a tool that runs its `command` input as a shell command (Monitor): the permission
   * decision judges the call exactly as a Bash call of that command (rules, flags, mode).
   */
  asBash?: boolean;
  /**
   * For an MCP server's tool: its server and the tool's own name, so rules naming the server
   * (`mcp__srv`, `mcp__srv__*`) hold for it wherever it is offered, a subagent's own server too.
   */
  mcpRoute?: { server: string; tool: string };
  /**
   * The call's input in a few words for a display line (`npm test`, `src/a.ts`); undefined (or
   * no `summary`) shows `key: value` pairs instead.
   */
  summary?(input: Record<string, unknown>, cwd: string): string | undefined;
  /**
   * Runs one call. May throw: the loop turns any thrown error into an `is_error` tool_result
   * carrying the error's message.
   */
  run(input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
}
