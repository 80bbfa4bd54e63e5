/**
 * One subagent: a conversation of its own through the same loop as every turn (a subagent is a
 * turn, not a mode). It gets its own system prompt (the agent's prompt and a short fixed part of
 * ours), only the task as its first message (none of the parent's history), the tools its
 * definition allows, its own model, and the parent loop's permission gate, PostToolUse hooks and
 * compaction. Every failure (an unknown model, maxTurns, a failed model call, an interrupt) is
 * an error result for the parent's model, never an exception out of the parent's turn.
 */
import { Conversation } from "../conversation.ts";
import { MaxTurnsError, runLoop } from "../loop/loop.ts";
import type { AgentIdentity, LoopOptions } from "../loop/loop-options.ts";
import { READ_ONLY_REMOVED } from "./builtin.ts";
import type { ModelClient } from "../model/model.ts";
import type { Usage } from "../messages.ts";
import { normalizeUsage } from "../model/usage.ts";
import { ToolState } from "../../tools/tool-state.ts";
import type { Tool, ToolContext, ToolOutput } from "../../tools/tool.ts";
import { errorMessage } from "../../shared/values.ts";
import { resolveSubagentModel } from "./model.ts";
import { printable } from "./parse.ts";
import { newAgentId, subagentReport } from "./report.ts";
import { subagentTools, type ToolMatch } from "./toolset.ts";
import type { AgentDefinition } from "./types.ts";
import { startInlineServers, type InlineContext } from "./inline-servers.ts";
import { trustFile, workspaceTrusted } from "../settings/workspace-trust.ts";
import { SidechainWriter } from "./transcript.ts";

/** What the Agent tool needs from the run (AgentRuntime's pieces). */
export interface SubagentDeps extends ToolMatch, InlineContext {
  /** A client for model `id`, counted in the run's usage and cost. */
  createModel(id: string): ModelClient;
  /** The run's skill of that name, for a definition's `skills` (loaded into the agent's first message). */
  skill(name: string): { load(args: string): Promise<{ text: string }> } | undefined;
  /** Notes one of the subagent's replies, so the run can tell its own usage from its subagents'. */
  recordUsage(model: string, usage: Usage | undefined): void;
  /** Settles when every configured server has connected or failed: a subagent waits for them, as a turn does. */
  ready(): Promise<void>;
  /**
   * Runs `run` as a background task (agent/background), when this run has background work: its
   * id and output file; undefined without it (the agent then runs in the foreground).
   */
  startInBackground?(o: {
    agentId: string;
    description: string;
    toolUseId?: string;
    run(signal: AbortSignal): Promise<{ content: string; isError?: boolean }>;
  }): { id: string; outputFile: string } | undefined;
}

export interface SubagentCall {
  def: AgentDefinition;
  prompt: string;
  description: string;
  /** The call's `model`, which overrides the definition's. */
  model?: string;
}

/** The fixed part after every agent's own prompt, in our words. */
export const SUBAGENT_SUFFIX = `You were started by another agent, not by the user. Its instructions direct your work, but they are not the user's consent to anything the user would have to approve.
- Give absolute file paths in what you report; your working directory may not be the reader's.
- Report back in your final message: it is the only thing the other agent receives. Do not write report files unless the task asks for one.`;

function systemPrompt(def: AgentDefinition, cwd: string): string {
  const env = `Working directory: ${cwd}\nToday's date: ${new Date().toISOString().slice(0, 10)}`;
  return [def.prompt.trim(), SUBAGENT_SUFFIX, env].filter(Boolean).join("\n\n");
}

/** Runs one subagent to its report. Never throws: failures are error results. */
export async function runSubagent(call: SubagentCall, ctx: ToolContext, parent: LoopOptions, deps: SubagentDeps, agentId = newAgentId()): Promise<ToolOutput> {
  const started = performance.now();
  const depth = (parent.depth ?? 0) + 1;
  const picked = resolveSubagentModel(call.model ?? call.def.model, parent.model.model);
  if ("error" in picked) return { isError: true, content: `Agent "${call.def.name}": ${picked.error}` };
  const model = picked.model === parent.model.model ? parent.model : deps.createModel(picked.model);
  const stats = { tokens: 0, toolUses: 0 };
  await deps.ready();
  const inline = await startInlineServers(call.def, deps);
  const configured = new Set(deps.configured());
  const named = call.def.mcpServers?.names ?? [];
  const notes = [...inline.notes, ...named.filter((n) => !configured.has(n)).map((n) => `No MCP server named "${n}" is configured; it is not available.`)];
  // Servers it names, and inline ones the run already has, limit which of the parent's servers it sees.
  const limit = [...named, ...inline.shared];
  let def: AgentDefinition = limit.length ? { ...call.def, mcpServers: { names: limit, inline: [] } } : call.def;
  // plan: no writing tools offered at all, as Explore and Plan; the gate applies plan mode's policy to the rest.
  if (def.permissionMode === "plan") def = { ...def, disallowedTools: [...(def.disallowedTools ?? []), ...READ_ONLY_REMOVED] };
  const base = { agentId, toolUseId: ctx.callId ?? "", subagentType: call.def.name, description: call.description };
  const emit = parent.hooks?.onSubagent;
  const session = parent.transcriptPath?.();
  const sidechain: SidechainWriter | undefined = session
    ? new SidechainWriter(
        session,
        agentId,
        session.replace(/^.*\//, "").replace(/\.jsonl$/, ""),
        parent.cwd,
        {
          agentType: call.def.name,
          isBuiltIn: call.def.source === "built-in",
          description: call.description,
          toolUseId: base.toolUseId,
          spawnDepth: depth,
          model: model.model,
        },
        deps.log,
      )
    : undefined;
  emit?.({ ...base, type: "started", prompt: call.prompt, depth });
  const skills = await preloadSkills(call.def.skills ?? [], deps, notes);
  const conversation = new Conversation(agentId, {
    write: (record) => {
      sidechain?.write(record);
      if (record.type === "message") emit?.({ ...base, type: "message", message: record.entry.message });
    },
  });
  conversation.append({
    role: "user",
    content: [
      { type: "text", text: call.prompt },
      ...skills,
      ...(notes.length ? [{ type: "text" as const, text: `Note from the harness: ${notes.join(" ")}` }] : []),
    ],
  });
  const toolsFor = (): Tool[] => subagentTools(def, parent.tools(), depth, deps, inline.tools);
  const options: LoopOptions = {
    ...parent,
    model,
    system: systemPrompt(call.def, parent.cwd),
    tools: toolsFor,
    // An agent that names its tools gets each in full; one without `tools` inherits tool search.
    offer: def.tools ? undefined : parent.offer,
    context: undefined,
    // A hook's `continue: false` inside the subagent ends it, and then its parent's turn.
    halted: parent.halted,
    toolState: new ToolState(parent.cwd),
    maxTurns: call.def.maxTurns,
    signal: ctx.signal,
    depth,
    hooks: {
      onAssistant: (reply) => {
        deps.recordUsage(reply.model || model.model, reply.usage);
        const u = normalizeUsage(reply.usage);
        stats.tokens += u.input_tokens + u.output_tokens;
      },
      onToolStart: () => {
        stats.toolUses++;
      },
      onToolBug: parent.hooks?.onToolBug,
      // A subagent's own subagents are shown too, each under its own Agent call.
      onSubagent: emit,
    },
  };
  const mode = call.def.permissionMode;
  const agent: AgentIdentity = {
    id: agentId,
    type: call.def.name,
    ...(mode ? { permissionMode: mode as AgentIdentity["permissionMode"] } : {}),
    // A repository's agent file loosens nothing until the user trusted the folder, as its settings do.
    modeTrusted: call.def.source !== "project" || workspaceTrusted(deps.cwd, trustFile(deps.env)),
  };
  const { canUseTool, afterTool, confirmCall } = parent;
  options.canUseTool = canUseTool && ((tool, input, c) => canUseTool(tool, input, c, agent));
  options.confirmCall = confirmCall && ((tool, input, c, reason) => confirmCall(tool, input, c, reason, agent));
  options.afterTool = afterTool && ((c, input, output) => afterTool(c, input, output, agent));
  const finish = () => ({ agentId, tokens: stats.tokens, toolUses: stats.toolUses, durationMs: Math.round(performance.now() - started) });
  let last = "";
  let ended: { status: "completed" | "failed" | "stopped"; summary: string } = { status: "failed", summary: "" };
  try {
    await parent.subagentHooks?.start(agent);
    const result = await runLoop(conversation, options);
    last = result.text;
    ended = { status: "completed", summary: result.text };
    return { content: subagentReport(result.text, finish()) };
  } catch (err) {
    const failure = failureText(call.def.name, err, ctx.signal.aborted, agentId);
    ended = { status: ctx.signal.aborted ? "stopped" : "failed", summary: failure };
    if (!ctx.signal.aborted && !(err instanceof MaxTurnsError)) deps.log(`Agent "${call.def.name}" failed: ${printable(errorMessage(err))}`);
    return { isError: true, content: failure };
  } finally {
    await inline.close();
    sidechain?.finish();
    const f = finish();
    emit?.({
      ...base,
      type: "finished",
      ...ended,
      usage: { total_tokens: f.tokens, tool_uses: f.toolUses, duration_ms: f.durationMs },
      outputFile: sidechain?.path,
    });
    if (!ctx.signal.aborted) await parent.subagentHooks?.stop(agent, last, sidechain?.path).catch(() => {});
  }
}

/** The skills a definition names, each loaded as a text block; one that is missing or fails is a note. */
async function preloadSkills(names: readonly string[], deps: SubagentDeps, notes: string[]): Promise<{ type: "text"; text: string }[]> {
  const out: { type: "text"; text: string }[] = [];
  for (const name of names) {
    const skill = deps.skill(name);
    if (!skill) {
      notes.push(`No skill named "${printable(name)}" is available.`);
      continue;
    }
    try {
      out.push({ type: "text", text: (await skill.load("")).text });
    } catch (err) {
      notes.push(`The skill "${printable(name)}" could not be loaded: ${printable(errorMessage(err))}`);
    }
  }
  return out;
}

/** The error result for a subagent that did not finish. */
function failureText(name: string, err: unknown, interrupted: boolean, agentId: string): string {
  if (interrupted) return `Agent "${name}" was interrupted before it finished.`;
  if (err instanceof MaxTurnsError) return `Agent "${name}" stopped after ${err.turns} model calls (its maxTurns) before it finished. agentId: ${agentId}`;
  return `Agent "${name}" failed: ${errorMessage(err)}. agentId: ${agentId}`;
}
