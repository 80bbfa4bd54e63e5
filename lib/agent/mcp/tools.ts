/**
 * MCP tools as the agent's `Tool`s (MCP 2025-11-25, server/tools): API-valid names from
 * `ToolNamer`, object input schemas, and calls whose every failure becomes an `is_error` result
 * the model can read: a JSON-RPC error, a timeout (MCP_TOOL_TIMEOUT), a server that died.
 */
import type { Tool, ToolContext, ToolOutput } from "../../tools/tool.ts";
import { callToolResultToOutput, normalizeInputSchema } from "./content.ts";
import { ClientErrorCode, clientError, McpError, NestedTooDeepError } from "../../mcp/protocol/errors.ts";
import { ToolNamer } from "./names.ts";
import { requiredUrlElicitations, URL_ELICITATION_REQUIRED } from "../../mcp/protocol/elicitation.ts";
import type { McpTool, ProgressParams } from "../../mcp/protocol/protocol.ts";
import type { McpRegistry } from "../../mcp/registry/registry.ts";
import { TaskCallError } from "../../mcp/tasks/follow.ts";
import type { Task } from "../../mcp/tasks/task.ts";
import { errorMessage } from "../../shared/values.ts";

/** Where an API tool name leads: the server and the server's own tool name. */
export interface ToolRoute {
  server: string;
  tool: string;
}

export interface McpToolsetOptions {
  /** Limit for a tool result's text, in characters; content.ts's default (MAX_MCP_OUTPUT_TOKENS) when absent. */
  maxOutputChars?: number;
  /** A problem the user should see (a tool left out); each distinct line once. */
  warn: (line: string) => void;
}

/**
 * The registry's tools as `Tool`s, named by one `ToolNamer` for the run (so a name, once given,
 * always routes to the same tool), rebuilt only when the registry's lists changed. Tools of a
 * server that died stay listed and answer that it is not connected.
 */
export class McpToolset {
  private readonly namer = new ToolNamer();
  private readonly warned = new Set<string>();
  private cache: { version: number; tools: Tool[] } | undefined;

  constructor(
    private readonly registry: McpRegistry,
    private readonly opts: McpToolsetOptions,
  ) {}

  tools(): Tool[] {
    const version = this.registry.version;
    if (this.cache?.version !== version) {
      const tools = adaptTools(
        this.registry.snapshot(),
        this.namer,
        (route, input, ctx) => this.call(route, input, ctx),
        (line) => this.warnOnce(line),
      );
      this.cache = { version, tools };
    }
    return this.cache.tools;
  }

  /** The server and MCP tool behind an API tool name given out by `tools()` (the namer's table). */
  route(toolName: string): ToolRoute | undefined {
    return this.namer.lookup(toolName);
  }

  /**
   * `tools/call` as the model sees it: the result through `callToolResultToOutput`, or
   * `{isError: true, content: <one line saying what went wrong>}`. Never throws.
   */
  private async call(route: ToolRoute, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
    const deadline = performance.now() + this.registry.toolTimeoutFor(route.server);
    for (let attempt = 1; ; attempt++) {
      // A server found dead is restarted by the registry, and this call waits for it. Awaited only
      // when there is something to wait for, so a call normally goes out in this same tick.
      const revived = this.registry.revive(route.server);
      if (revived) {
        const failure = await revived;
        if (failure) return { isError: true, content: failure };
      }
      if (!this.registry.isConnected(route.server)) return { isError: true, content: `MCP server "${route.server}" is not connected` };
      try {
        const onProgress = ctx.onProgress && ((p: ProgressParams) => ctx.onProgress!(describeProgress(p)));
        // A task's status message ("Synthesizing findings…") is its progress (MCP 2025-11-25, basic/utilities/tasks).
        const onTaskStatus = ctx.onProgress && ((task: Task) => ctx.onProgress!(task.statusMessage ?? task.status, "task"));
        const result = await this.registry.callTool(route.server, route.tool, input, { signal: ctx.signal, onProgress, onTaskStatus });
        return callToolResultToOutput(result, { maxChars: this.opts.maxOutputChars });
      } catch (error) {
        // A call that cannot have reached the server is sent again, so a tool never runs twice:
        // written into a pipe with no reader (EPIPE: the process died first), once, to the
        // restarted process; an HTTP server unreachable, with back-off, within the tool timeout.
        const wait = resendAfter(error, attempt, deadline - performance.now());
        if (wait !== undefined && !ctx.signal.aborted) {
          await Bun.sleep(wait);
          continue;
        }
        return { isError: true, content: describeCallError(error, route) };
      }
    }
  }

  private warnOnce(line: string): void {
    if (this.warned.has(line)) return;
    this.warned.add(line);
    this.opts.warn(line);
  }
}

/**
 * One `Tool` per listed MCP tool, in server order. A tool whose inputSchema cannot be made an
 * object schema is left out and reported through `warn`. `run` receives the route captured at
 * build time, so calls never depend on parsing the API name.
 */
function adaptTools(
  servers: readonly { name: string; tools: readonly McpTool[] }[],
  namer: ToolNamer,
  run: (route: ToolRoute, input: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutput>,
  warn: (line: string) => void,
): Tool[] {
  const tools: Tool[] = [];
  for (const server of servers) {
    for (const mcpTool of server.tools) {
      const inputSchema = normalizeInputSchema(mcpTool.inputSchema);
      if (!inputSchema) {
        warn(`MCP server "${server.name}": tool "${mcpTool.name}" left out: its inputSchema is not an object schema`);
        continue;
      }
      const route = { server: server.name, tool: mcpTool.name };
      tools.push({
        name: namer.name(server.name, mcpTool.name),
        description: mcpTool.description ?? mcpTool.title ?? "",
        inputSchema,
        readOnly: mcpTool.annotations?.readOnlyHint === true,
        mcpRoute: route,
        run: (input, ctx) => run(route, input, ctx),
      });
    }
  }
  return tools;
}

/** `notifications/progress` as one short line: "3/10 (30%) message" (basic/utilities/progress). */
function describeProgress(p: ProgressParams): string {
  const total = typeof p.total === "number" && p.total > 0 ? `/${p.total} (${Math.round((p.progress / p.total) * 100)}%)` : "";
  return [`${p.progress}${total}`, typeof p.message === "string" ? p.message : ""].filter(Boolean).join(" ");
}

/** Back-off between sends of a call an HTTP server never received, in ms (the last repeats). */
const UNREACHABLE_BACKOFF_MS = [250, 500, 1000, 2000, 4000];

/** How long to wait before sending a failed call again, or undefined when it may have run (or no time is left). */
function resendAfter(error: unknown, attempt: number, leftMs: number): number | undefined {
  const e = clientError(error);
  const cause = e?.code === ClientErrorCode.ConnectionClosed ? e.cause : undefined;
  if ((cause as NodeJS.ErrnoException | undefined)?.code === "EPIPE") return attempt === 1 ? 0 : undefined;
  if (clientError(cause)?.code !== ClientErrorCode.NotSent) return undefined;
  const wait = UNREACHABLE_BACKOFF_MS[Math.min(attempt - 1, UNREACHABLE_BACKOFF_MS.length - 1)]!;
  return wait < leftMs ? wait : undefined;
}

function describeCallError(error: unknown, { server, tool }: ToolRoute): string {
  const urls = error instanceof McpError && error.code === URL_ELICITATION_REQUIRED ? requiredUrlElicitations(error.data) : [];
  if (urls.length) {
    // The model cannot open a page: it can tell the user which, and why, and call again once they have.
    const pages = urls.map((e) => `${e.url}${e.message ? ` (${JSON.stringify(e.message)})` : ""}`).join("; ");
    return `MCP server "${server}" needs the user to open ${urls.length === 1 ? "a page" : `${urls.length} pages`} before ${tool} can run: ${pages}. Ask the user to open ${urls.length === 1 ? "it" : "them"} and finish there, then call ${tool} again.`;
  }
  if (error instanceof TaskCallError) return error.message;
  if (error instanceof NestedTooDeepError) return `MCP server "${server}" failed the call of ${tool}: its ${error.message}`;
  const e = clientError(error);
  if (!e || e.code === ClientErrorCode.NotSent) return errorMessage(error);
  switch (e.code) {
    case ClientErrorCode.RequestTimeout:
      return `MCP tool ${tool} on server "${server}" timed out after ${e.timeoutMs} ms (MCP_TOOL_TIMEOUT); the call was cancelled`;
    case ClientErrorCode.ConnectionClosed: {
      // A send that failed on a live session (an HTTP status, a reply stream cut short): its own words.
      // A pipe's error code (EPIPE) says only that the process is going: "exited" says it better.
      const cause = e.cause;
      if (cause instanceof Error && (cause as NodeJS.ErrnoException).code !== "EPIPE" && !e.byUs)
        return `MCP server "${server}" failed the call of ${tool}: ${cause.message}`;
      return `MCP server "${server}" ${e.byUs ? "was shut down" : "exited"} during the call`;
    }
    case ClientErrorCode.RequestCancelled:
      return `MCP tool ${tool} on server "${server}" was interrupted`;
    default:
      return `MCP server "${server}" returned an error for ${tool}: ${e.message}`;
  }
}
