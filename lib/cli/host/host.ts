/**
 * Host mode (`--input-format stream-json --output-format stream-json`): the protocol the Claude
 * Agent SDK speaks to the executable it runs. Each stdin line is one JSON message: `user`
 * messages make one conversation, turn after turn; `control_request`s (control.ts) steer
 * it; `control_response`s answer ours (channel.ts). Stdout carries only protocol lines;
 * diagnostics go to stderr. EOF on stdin ends the run once queued turns are done, servers shut down.
 */
import type { CliArgs } from "../flags/args.ts";
import { shutdownSignal } from "../../agent/lifecycle.ts";
import { isStartError, Run, startExitCode } from "../run.ts";
import { writeStdout } from "../io/stdout.ts";
import { HostChannel } from "./channel.ts";
import { handleControl, initializeResponse, type HostState } from "./control.ts";
import { hostPermissions, runHostTurn, type UserLine } from "./host-turn.ts";
import { decide } from "../../agent/policy/decide.ts";
import type { Skill } from "../../agent/skills/skill.ts";
import { skillAllowed } from "../../agent/policy/skill-permission.ts";
import type { ToolContext } from "../../tools/tool.ts";
import type { ServerConfig } from "../../mcp/config/load.ts";
import { errorMessage } from "../../shared/values.ts";
import { AsyncQueue } from "../../shared/queue.ts";
import { ToolState } from "../../tools/tool-state.ts";
import { runCheckpoints } from "../../agent/checkpoints/open.ts";
import { hostDomainQuestion } from "./domain-question.ts";
import { forwardTaskEvents, nextInput } from "./background.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";

// A host may show these lines: a quoted server or file keeps no code of its own.
const stderr = (line: string) => process.stderr.write(`${ourColoursOnly(line)}\n`);

interface ControlLine {
  type: "control_request";
  request_id: string;
  request: { subtype: string; [k: string]: unknown };
}

/** Stdin as one parsed JSON value per non-empty line; a line that does not parse is reported and skipped. */
async function* jsonLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = "";
  let n = 0;
  const parse = (line: string) => {
    n++;
    if (!line.trim()) return undefined;
    try {
      return JSON.parse(line) as unknown;
    } catch {
      stderr(`stream-json input line ${n} is not JSON: skipped`);
      return undefined;
    }
  };
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = buffered.indexOf("\n")) !== -1) {
      const value = parse(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
      if (value !== undefined) yield value;
    }
  }
  const last = parse(buffered + decoder.decode());
  if (last !== undefined) yield last;
}

/** Runs host mode to EOF. Returns the exit code: 0; 2 for a usage error (a session flag, --settings, --mcp-config); 1 when the run cannot go on. */
export async function runHost(args: CliArgs): Promise<number> {
  const cwd = process.cwd();
  let pending: Promise<unknown> = Promise.resolve();
  const emit = (message: object) => {
    const line = `${JSON.stringify(message)}\n`;
    pending = pending.then(() => writeStdout(line));
  };
  if (args.verbose && args.ignoredFlags.length) stderr(`note: accepted for the Agent SDK and ignored: ${args.ignoredFlags.join(" ")}`);
  // With --permission-prompt-tool stdio, the sandbox's proxy asks the host about an unlisted domain (domain-question.ts).
  let askDomain: ((host: string) => Promise<boolean>) | undefined;
  const run = await Run.open(args, { cwd, warn: stderr, endReason: "other", askDomain: (host) => askDomain?.(host) ?? Promise.resolve(false) });
  if (typeof run === "number") return run;
  const channel = new HostChannel(emit);
  if (args.permissionPromptStdio) askDomain = hostDomainQuestion(channel);
  const turns = new AsyncQueue<UserLine>();
  const early: ControlLine[] = [];
  let state: HostState | undefined;
  let initialize: ControlLine | undefined;
  let started!: () => void;
  const firstLine = new Promise<void>((resolve) => (started = resolve));

  // Every control request gets its response before the run ends, even one still working at EOF.
  const answering = new Set<Promise<void>>();
  const answer = (line: ControlLine) => {
    const work = handleControl(line, state, channel).finally(() => answering.delete(work));
    answering.add(work);
  };
  const dispatch = (message: any) => {
    switch (message?.type) {
      case "control_response":
        return channel.onResponse(message);
      case "control_request": {
        const line = message as ControlLine;
        if (typeof line.request_id !== "string" || typeof line.request?.subtype !== "string")
          return stderr("control_request without request_id or subtype: skipped");
        if (line.request.subtype === "initialize" && !state && !initialize) {
          initialize = line;
          return started();
        }
        // An sdk server's messages must flow while servers start: they are part of the start.
        if (state || line.request.subtype === "mcp_message") return answer(line);
        return void early.push(line);
      }
      case "user":
        turns.push(message as UserLine);
        return started();
      case "keep_alive":
      case "control_cancel_request":
        return;
      default:
        if (args.verbose) stderr(`stream-json input: message of type ${JSON.stringify(message?.type)} ignored`);
    }
  };
  const reading = (async () => {
    for await (const message of jsonLines(Bun.stdin.stream())) dispatch(message);
    turns.end();
    channel.end();
    started();
  })();

  let code = 0;
  try {
    await firstLine;
    const init = (initialize?.request ?? {}) as {
      sdkMcpServers?: unknown;
      systemPrompt?: unknown;
      appendSystemPrompt?: unknown;
      mcpServers?: unknown;
      skills?: unknown;
      agents?: unknown;
    };
    // mcpServersDelivery "initialize": the program's servers come here instead of --mcp-config.
    const delivered = init.mcpServers && typeof init.mcpServers === "object" ? [JSON.stringify({ mcpServers: init.mcpServers })] : [];
    const sdkServers: ServerConfig[] = Array.isArray(init.sdkMcpServers)
      ? init.sdkMcpServers.filter((n): n is string => typeof n === "string").map((name) => ({ type: "sdk", name }))
      : [];
    const systemPrompt = Array.isArray(init.systemPrompt) ? init.systemPrompt.join("\n") : typeof init.systemPrompt === "string" ? init.systemPrompt : "";
    const options = run.options({ log: stderr });
    const runtime = await run.startRuntime({
      ...options,
      mcpConfig: [...options.mcpConfig, ...delivered],
      // The SDK sends [""] when the program set no system prompt: ours stays then.
      ...(systemPrompt.trim() ? { systemPrompt } : {}),
      ...(typeof init.appendSystemPrompt === "string" && init.appendSystemPrompt ? { appendSystemPrompt: init.appendSystemPrompt } : {}),
      extraServers: sdkServers,
      // The SDK's `agents` option: more agent types, beside the files' and --agents'.
      ...(init.agents && typeof init.agents === "object" && !Array.isArray(init.agents) && options.subagents
        ? { subagents: { ...options.subagents, sdk: init.agents as Record<string, unknown> } }
        : {}),
      sdkHost: channel.sdkHost,
      // The SDK's `skills` option: only the named skills are offered.
      ...(Array.isArray(init.skills) ? { skills: init.skills.filter((n): n is string => typeof n === "string") } : {}),
      skillGate: (skill, ctx) => (state ? hostSkillGate(state, channel, skill, ctx) : undefined),
    });
    run.begin(runtime);
    state = {
      runtime,
      args,
      // A settings defaultMode reaches host mode only as plan (the one mode that only tightens); never -p.
      mode: args.skipPermissions
        ? "bypassPermissions"
        : (args.permissionMode ?? (run.settings?.defaultMode === "plan" ? "plan" : args.permissionPromptStdio ? "default" : undefined)),
      current: undefined,
      tools: new ToolState(runtime.opts.cwd),
      checkpoints: await runCheckpoints(false, run, stderr),
    };
    if (initialize)
      channel.respond(initialize.request_id, { response: { ...initializeResponse(state), ...(delivered.length ? { mcp_servers_applied: true } : {}) } });
    for (const line of early.splice(0)) answer(line);
    // Background work (background.ts): task events out, notices in as turns, every task stopped at EOF.
    const tasks = runtime.backgroundWork?.registry;
    tasks?.useSession(runtime.opts.cwd, run.conversation.sessionId);
    const unlisten = tasks && forwardTaskEvents(tasks, emit, () => run.conversation.sessionId);
    const pendingLine = { line: turns.next() };
    for (;;) {
      const line = await nextInput(pendingLine, () => turns.next(), tasks);
      if (!line || shutdownSignal.aborted) break;
      await runHostTurn(line, state, channel, run.conversation, emit);
    }
    await tasks?.stopAll("the host closed its input");
    unlisten?.();
  } catch (err) {
    code = isStartError(err) ? startExitCode(err) : 1;
    if (!shutdownSignal.aborted) stderr(`error: ${errorMessage(err)}`);
  } finally {
    await Promise.all(answering);
    await pending;
    await run.end();
  }
  void reading;
  return code;
}

/**
 * Before the model loads a skill with `allowed-tools`: the same decision as for a tool that needs
 * permission (the mode, --allowedTools, the host's `can_use_tool` for "Skill"); a `Skill(<name>)`
 * rule answers it beforehand. Undefined lets it load; otherwise the refusal the model reads.
 */
async function hostSkillGate(state: HostState, channel: HostChannel, skill: Skill, ctx: ToolContext): Promise<string | undefined> {
  if (skillAllowed(skill, state.args.allowedTools, state.runtime.opts.settings)) return undefined;
  const tool = state.runtime.tools().find((t) => t.name === "Skill");
  if (!tool) return undefined;
  const asking = { ...tool, asksPermission: true };
  const input = { skill: skill.name };
  const permissions = hostPermissions(state, channel, ctx.signal);
  const verdict = decide({ tool: asking, input, flagAllows: permissions.flagAllows(asking, input), mode: permissions.mode() });
  if (verdict.behavior === "allow") return undefined;
  if (verdict.behavior === "deny" || !permissions.ask) return verdict.message;
  const decision = await permissions.ask(asking, input, { type: "tool_use", id: ctx.callId ?? "", name: "Skill", input }, verdict.message);
  if (decision === true || (typeof decision === "object" && decision.behavior === "allow")) return undefined;
  return typeof decision === "object" && decision.behavior === "deny" ? decision.message : `The host denied skill ${skill.name}.`;
}
