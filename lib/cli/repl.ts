/**
 * The interactive session (no -p, stdin a terminal): a prompt with line editing, history and Tab
 * completion; each input goes through the shared input path (parseInput) and the tool-use loop on
 * the running conversation, with streamed model text, one line per tool call, and permission
 * prompts. Esc or Ctrl-C interrupts a turn; Ctrl-C twice or Ctrl-D leaves; servers are shut down on exit.
 */
import type { CliArgs } from "./args.ts";
import { runtimeOptions } from "./runtime-options.ts";
import { trustHook } from "./repl-trust.ts";
import { AgentRuntime } from "../agent/runtime.ts";
import { parseInput, InputError } from "../agent/input.ts";
import { runLoop } from "../agent/loop.ts";
import { ToolState } from "../tools/tool-state.ts";
import { ModelError } from "../agent/model.ts";
import { McpConfigFlagError } from "../agent/runtime-options.ts";
import { exitAfterShutdown, onShutdown, shutdown } from "../agent/lifecycle.ts";
import { colorEnabled, createStyle, type Style } from "./ui-style.ts";
import { StartupStatus } from "./ui-status.ts";
import { TurnView } from "./ui-turn.ts";
import { MarkdownStream } from "./ui-markdown.ts";
import { TurnStatus } from "./ui-activity.ts";
import { addUserInput, recordInterrupt } from "./repl-turns.ts";
import { History, historyPath } from "./repl-history.ts";
import { PROMPT, Terminal } from "./repl-terminal.ts";
import { createCompleter } from "./repl-complete.ts";
import { completionSources } from "./repl-complete-sources.ts";
import { permissionHook } from "./repl-permission.ts";
import { ServerProgress } from "./repl-servers.ts";
import { samplingConsent } from "./repl-sampling.ts";
import { deferredElicitation } from "./repl-elicitation.ts";
import type { SamplingConsent } from "../agent/mcp/sampling.ts";
import { permissionPreview } from "./ui-permission.ts";
import { mcpCallName, toolStartLine } from "./ui-tool-lines.ts";
import { toolBugReport } from "./tool-bugs.ts";
import { openRunSession, SessionError } from "./session-flags.ts";
import type { OpenedSession } from "../agent/session-open.ts";
import { describeCompaction } from "../agent/compact.ts";
import { REPL_BUILTINS, runBuiltin, type ReplState } from "./repl-commands.ts";
import { errorMessage } from "../shared/values.ts";

/** The abort reason of a turn the user interrupted with Ctrl-C. */
class TurnInterrupted extends Error {
  constructor() {
    super("interrupted by the user");
  }
}

/**
 * Runs the session until the user leaves. Returns 0 after a normal exit (servers shut down),
 * 1 when the session cannot start (no API key).
 */
export async function runRepl(args: CliArgs): Promise<number> {
  const cwd = process.cwd();
  const style = createStyle(colorEnabled(process.stderr));
  const status = new StartupStatus(process.stderr, style);
  let log = status.log;
  let runtime: AgentRuntime;
  let session: OpenedSession;
  try {
    const resume = args.resume === "" ? await (await import("./repl-picker.ts")).pickSession(cwd) : args.resume;
    if (resume === null) return 0;
    session = openRunSession(args, cwd, (line) => process.stderr.write(`${line}\n`), resume);
  } catch (err) {
    if (!(err instanceof SessionError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return err.usage ? 2 : 1;
  }
  // Leaving while servers connect (Ctrl-C, SIGTERM) must not leave the live line half-drawn.
  const dropStatus = onShutdown(async () => status.abandon());
  // Servers connect in the background: the prompt comes at once (see repl-servers.ts).
  let started: AgentRuntime | undefined;
  const progress = new ServerProgress(style, () => started);
  let consent: SamplingConsent | undefined;
  const elicitation = deferredElicitation();
  try {
    runtime = await AgentRuntime.start(
      runtimeOptions(
        args,
        cwd,
        {
          log: (line) => log(line),
          onMcpServerSettled: progress.settle,
          approveProjectServers: trustHook(cwd),
          background: true,
          samplingConsent: (server, params, signal) => consent?.(server, params, signal) ?? Promise.resolve(false),
          elicitation: elicitation.feature,
        },
        session.savedModel,
      ),
    );
    started = runtime;
  } catch (err) {
    if (!(err instanceof ModelError || err instanceof McpConfigFlagError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    await shutdown();
    return err instanceof McpConfigFlagError ? 2 : 1;
  }
  dropStatus();
  process.stderr.write(style.dim(`${runtime.model.model} · ${cwd} · /help for commands, Ctrl-D to leave`) + "\n");

  const history = new History(historyPath(), (line) => term.print(line));
  const term = new Terminal({
    completer: createCompleter(completionSources(runtime, cwd)),
    history: history.load(),
    style,
  });
  // Servers may log at any time (a crash, a failed re-list): such lines go above the prompt.
  log = (line) => term.print(line);
  progress.attach({ setNotice: (line) => term.setNotice(line), print: (text) => term.print(text) });
  consent = samplingConsent((question, body) => term.ask(style.yellow(question), body), style);
  session.start(runtime.model.model);
  runtime.pinRoutes(session.conversation.routes);
  const state: ReplState = { conversation: session.conversation, session, tools: new ToolState(cwd) };
  const resumedTurns = state.conversation.turns;
  if (resumedTurns) term.print((await import("./repl-resume.ts")).resumedScreen(state.conversation, style, cwd));
  const turn = new TurnRunner(runtime, state, term, style, args);
  elicitation.attach({ term, style, waiting: (server) => turn.waitingForUser(`Waiting for your answer to ${server}…`) });
  try {
    // `agent "question"` on a terminal starts the session with that question, as Claude Code does.
    let first = args.prompt?.trim() ? args.prompt : undefined;
    if (first !== undefined) term.print(`${PROMPT}${first}`);
    for (;;) {
      const line = first ?? (await term.readLine());
      first = undefined;
      if (line === null) break;
      if (!line.trim()) continue;
      history.add(line);
      if ((await turn.run(line)) === "exit") break;
    }
  } finally {
    term.close();
  }
  await shutdown();
  return 0;
}

/** One input at a time: a built-in command, or a turn of the tool-use loop. */
class TurnRunner {
  /** --allowedTools plus every "always" answer of this session. */
  private readonly allowed: Set<string>;
  /** While a turn runs: says on its status line that the user is being asked, until the returned call. */
  private waiting: ((phase: string) => () => void) | undefined;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly state: ReplState,
    private readonly term: Terminal,
    private readonly style: Style,
    private readonly args: CliArgs,
  ) {
    this.allowed = new Set(args.allowedTools);
  }

  /** The status line says `phase` until the returned call (a server's question to the user); nothing when no turn runs. */
  waitingForUser(phase: string): () => void {
    return this.waiting?.(phase) ?? (() => undefined);
  }

  /** Handles one submitted line; "exit" when the user asked to leave. Never throws. */
  async run(line: string): Promise<"exit" | undefined> {
    const { runtime, state, term, style } = this;
    const cwd = runtime.opts.cwd;
    const status = new TurnStatus((l) => term.setStatus(l), style);
    const view = new TurnView(
      {
        print: (text) => term.print(text),
        setActivity: (lines) => term.setActivity(lines),
        setPending: (lines) => term.setPending(lines),
        columns: process.stdout.columns ?? 80,
      },
      style,
      cwd,
      new MarkdownStream(() => process.stdout.columns ?? 80, style),
      status,
      (call) => toolStartLine(call.name, call.input, cwd, style, runtime.route(call.name)),
      (call) => mcpCallName(call.name, runtime.route(call.name)),
    );
    const controller = new AbortController();
    const interrupt = () => controller.abort(new TurnInterrupted());
    // Text the current model call has streamed: kept in the conversation if the turn is interrupted.
    let partial = "";
    const conversation = state.conversation;
    // Where this turn's messages start: a request the API refuses is dropped whole (see below).
    let before = conversation.mark();
    term.busy(interrupt, () => {
      term.close();
      void exitAfterShutdown(0);
    });
    status.start();
    this.waiting = (phase) => {
      view.endLine();
      status.asking(phase);
      return view.resumeStatus;
    };
    try {
      // A turn needs every server that may still connect (each within MCP_TIMEOUT); /mcp and the like do not.
      const builtin = /^\/(\S+)/.exec(line.trim())?.[1];
      if (runtime.connecting.size && !(builtin && REPL_BUILTINS.has(builtin))) {
        const names = [...runtime.connecting].join(", ");
        view.line(style.dim(`Waiting for MCP servers still connecting: ${names}`));
        status.set(`Waiting for ${names}…`);
        await untilAborted(runtime.connected, controller.signal);
        status.set("Thinking…");
      }
      runtime.skills?.newTurn();
      const parsed = await untilAborted(
        parseInput(line, { cwd, builtins: REPL_BUILTINS, mcp: runtime.mcpInput(), skills: runtime.skillInput(), warn: view.line }),
        controller.signal,
      );
      if (parsed.kind === "builtin") {
        status.stop();
        const out = await runBuiltin(parsed.name, parsed.args, runtime, state, controller.signal);
        if (out === "exit") return "exit";
        term.print(out);
        return undefined;
      }
      before = addUserInput(conversation, parsed.content);
      const bugs = toolBugReport(view.line, this.args.debug);
      await runLoop(conversation, {
        model: runtime.model,
        system: runtime.systemPrompt(),
        tools: () => runtime.tools(),
        offer: (tools) => runtime.offer(tools),
        context: () => runtime.skillContext(),
        compact: (c, request) => runtime.autoCompact(c, request),
        beforeModelCall: async () => {
          await runtime.refresh();
          conversation.noteRoutes(runtime.routes());
        },
        toolState: state.tools,
        canUseTool: permissionHook({
          cwd,
          allowed: this.allowed,
          skipAll: this.args.skipPermissions,
          signal: controller.signal,
          ask: async (question, body) => {
            view.endLine();
            status.asking("Waiting for your answer…");
            try {
              return await term.ask(style.yellow(question), body);
            } finally {
              view.resumeStatus();
            }
          },
          preview: (tool, input) => permissionPreview(tool.name, input, { cwd, style, mcpRoute: (name) => runtime.route(name) }),
          onInterrupt: interrupt,
          matches: (toolName, rule) => runtime.matchesRule(toolName, rule),
          granted: () => runtime.skillGrants(),
        }),
        cwd,
        signal: controller.signal,
        hooks: {
          onText: (delta) => {
            partial += delta;
            view.text(delta);
          },
          onAssistant: (reply) => {
            partial = "";
            view.callDone(reply.usage?.output_tokens);
          },
          onCompact: (info) => view.line(style.dim(describeCompaction(info))),
          onToolStart: view.toolStart,
          onToolProgress: view.toolProgress,
          onToolEnd: view.toolEnd,
          onToolBug: bugs.onToolBug,
        },
      });
      const crashed = bugs.summary();
      if (crashed) view.line(style.red(crashed));
      view.endLine();
    } catch (err) {
      view.endLine();
      if (controller.signal.aborted) {
        if (conversation.mark() > before) recordInterrupt(conversation, partial);
        view.line(style.yellow("Interrupted."));
      } else if (isRefusedRequest(err)) {
        // Kept, the refused messages would be resent, and refused, on every later turn. Cutting
        // back to before the user's message drops tool_use and tool_result blocks together.
        conversation.rollback(before);
        view.line(style.red(`error: ${err.message}`));
        view.line(style.yellow("This turn was discarded: the conversation is as it was before it."));
      } else {
        view.line(style.red(`error: ${err instanceof InputError || err instanceof ModelError ? err.message : describe(err)}`));
      }
    } finally {
      this.waiting = undefined;
      status.stop();
      term.idle();
    }
    return undefined;
  }
}

/** `work`, or a rejection with the abort reason as soon as `signal` fires. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The API refused the request itself (400 invalid, 413 too large): sending it again cannot help. */
function isRefusedRequest(err: unknown): err is ModelError {
  return err instanceof ModelError && (err.status === 400 || err.status === 413);
}

function describe(err: unknown): string {
  return errorMessage(err);
}
