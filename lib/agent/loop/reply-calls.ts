/**
 * One reply's tool calls (loop.ts): exactly one tool_result per tool_use, in order; consecutive
 * read-only calls run together, anything that may change state alone. Each call passes the
 * permission answer, runs through the `Tool` interface (or its own loop, for a NestedTool), then its
 * PostToolUse step; a bug in a tool becomes an is_error result, never a failed run.
 */
import type { Tool, ToolContext, ToolOutput } from "../../tools/tool.ts";
import { ToolError } from "../../tools/tool-error.ts";
import type { TextBlock, ToolResultContentBlock, ToolUseBlock } from "../messages.ts";
import { errorMessage } from "../../shared/values.ts";
import type { LoopOptions, NestedTool } from "./loop-options.ts";

const nested = (tool: Tool | undefined): NestedTool | undefined => (tool && "runInLoop" in tool ? (tool as NestedTool) : undefined);
/** Whether a call may run beside its neighbours in one reply. */
const together = (tool: Tool | undefined) => Boolean(tool?.readOnly || nested(tool)?.concurrent);

/**
 * Runs a reply's calls and returns exactly one tool_result per tool_use, in order. Consecutive
 * read-only calls run concurrently; anything that may change state runs alone, in order.
 */
export async function runToolCalls(
  calls: ToolUseBlock[],
  tools: Tool[],
  opts: LoopOptions,
  signal: AbortSignal,
  truncated: ToolUseBlock | undefined,
): Promise<{ results: ToolResultContentBlock[]; followUp: TextBlock[] }> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  for (const t of tools) for (const alias of nested(t)?.aliases ?? []) if (!byName.has(alias)) byName.set(alias, t);
  const results: ToolResultContentBlock[] = new Array(calls.length);
  const followUps: TextBlock[][] = new Array(calls.length);
  let i = 0;
  while (i < calls.length) {
    let j = i + 1;
    if (together(byName.get(calls[i]!.name))) while (j < calls.length && together(byName.get(calls[j]!.name))) j++;
    await Promise.all(
      calls.slice(i, j).map(async (call, k) => {
        [results[i + k], followUps[i + k]] = await runOne(call, byName.get(call.name), opts, signal, call === truncated);
      }),
    );
    i = j;
  }
  return { results, followUp: followUps.flat() };
}

async function runOne(
  call: ToolUseBlock,
  tool: Tool | undefined,
  opts: LoopOptions,
  signal: AbortSignal,
  truncated: boolean,
): Promise<[ToolResultContentBlock, TextBlock[]]> {
  opts.hooks?.onToolStart?.(call);
  const ran: { input?: Record<string, unknown> } = {};
  let output = await execute(call, tool, opts, signal, truncated, ran);
  // Text that follows the tool_result blocks, in call order: the tool's own (a skill's content),
  // then what its PostToolUse hooks added.
  const followUp: TextBlock[] = [...(output.followUp ?? [])];
  if (ran.input && opts.afterTool) {
    const after = await opts.afterTool(call, ran.input, output);
    followUp.push(...(after.context ?? []).map((text) => ({ type: "text" as const, text })));
    output = after.output ?? output;
  }
  const content = wellFormed(typeof output.content === "string" || output.content.length ? output.content : "(no output)");
  const result: ToolResultContentBlock = { type: "tool_result", tool_use_id: call.id, content };
  if (output.isError) result.is_error = true;
  opts.hooks?.onToolEnd?.(call, result);
  return [result, followUp];
}

/**
 * Output cut at a character limit can end in half a surrogate pair, which the API refuses as
 * invalid JSON (a 400 that would end the run): every tool's text passes through here.
 */
function wellFormed(content: ToolOutput["content"]): ToolOutput["content"] {
  if (typeof content === "string") return content.toWellFormed();
  return content.map((b) => (b.type === "text" ? { ...b, text: b.text.toWellFormed() } : b));
}

/** Runs one call; `ran.input` is set to the input it ran with once the tool was allowed to run. */
async function execute(
  call: ToolUseBlock,
  tool: Tool | undefined,
  opts: LoopOptions,
  signal: AbortSignal,
  truncated: boolean,
  ran: { input?: Record<string, unknown> },
): Promise<ToolOutput> {
  if (truncated) {
    return { isError: true, content: "This tool call was cut off by max_tokens and was not run: its input may be partial. Try again with a shorter call." };
  }
  if (signal.aborted) return { isError: true, content: "Interrupted by the user before this tool ran." };
  if (!tool) return { isError: true, content: `No such tool: ${call.name}` };
  let input = (call.input && typeof call.input === "object" ? call.input : {}) as Record<string, unknown>;
  try {
    const decision = opts.canUseTool ? await opts.canUseTool(tool, input, call) : true;
    if (decision === false) return { isError: true, content: `The user refused to run ${call.name}.` };
    if (typeof decision === "object" && decision.behavior === "deny") return { isError: true, content: decision.message };
    if (typeof decision === "object" && decision.updatedInput) input = decision.updatedInput;
    const progress = opts.hooks?.onToolProgress;
    ran.input = input;
    const ctx: ToolContext = {
      cwd: opts.cwd,
      signal,
      toolState: opts.toolState,
      callId: call.id,
      excluded: opts.excluded,
      fileChange: opts.fileChange,
      confirm: opts.confirmCall && ((reason) => opts.confirmCall!(tool, input, call, reason)),
      sandbox: opts.sandbox,
      onProgress: progress && ((message, kind) => progress(call, message, kind)),
    };
    const inLoop = nested(tool);
    return await (inLoop ? inLoop.runInLoop(input, ctx, opts) : tool.run(input, ctx));
  } catch (err) {
    // An interrupted tool may throw the abort reason; anything else that is not a ToolError is a bug.
    if (!(err instanceof ToolError) && !signal.aborted) opts.hooks?.onToolBug?.(call, err);
    return { isError: true, content: errorMessage(err) };
  }
}
