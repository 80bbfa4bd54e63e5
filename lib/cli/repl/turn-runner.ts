/**
 * One input of the interactive session at a time: a built-in command, or a turn (lib/agent/turn/turn.ts) with
 * the model's text rendered as it streams, one line per tool call, permission questions on the
 * prompt's row and a status line. Esc or Ctrl-C interrupts it; Ctrl-C twice leaves.
 */
import type { CliArgs } from "../flags/args.ts";
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import { InputError } from "../../agent/input/input.ts";
import { ModelError } from "../../agent/model/model.ts";
import { exitAfterShutdown } from "../../agent/lifecycle.ts";
import { describeCompaction } from "../../agent/compact.ts";
import type { Style } from "../ui/style.ts";
import { TurnView } from "../ui/turn-view.ts";
import { MarkdownStream } from "../ui/markdown.ts";
import { TurnStatus } from "../ui/turn-status.ts";
import { permissionPreview } from "../ui/permission-preview.ts";
import { mcpCallName, toolStartLine } from "../ui/tool-lines.ts";
import type { Terminal } from "./prompt/terminal.ts";
import { sessionMode, sessionPermissions } from "./permission.ts";
import { SessionMode } from "./planning/mode-cycle.ts";
import { approvePlan } from "./planning/plan-approval.ts";
import { askUserQuestions } from "./planning/ask-user.ts";
import { planFilePath } from "../../agent/plan/plan-file.ts";
import { AlwaysStore } from "./always.ts";
import { REPL_BUILTINS, runBuiltin, type ReplState } from "./commands.ts";
import { subagentView } from "./subagent-view.ts";
import { errorMessage } from "../../shared/values.ts";
import { runTurn } from "../../agent/turn/turn.ts";
import type { ContentBlock } from "../../agent/messages.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";

/** The abort reason of a turn the user interrupted with Ctrl-C. */
class TurnInterrupted extends Error {
  constructor() {
    super("interrupted by the user");
  }
}

export class TurnRunner {
  /** --allowedTools plus every "always" answer of this session. */
  private readonly allowed: Set<string>;
  /** The `[a]lways` answers that saved a rule (always.ts). */
  private readonly always: AlwaysStore;
  /** The session's permission mode: the flags', else the settings' `defaultMode`; Shift+Tab and an approved plan change it. */
  readonly modes: SessionMode;
  /** While a turn runs: says on its status line that the user is being asked, until the returned call. */
  private waiting: ((phase: string) => () => void) | undefined;
  private interruptTurn: (() => void) | undefined;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly state: ReplState,
    private readonly term: Terminal,
    private readonly style: Style,
    private readonly args: CliArgs,
    modes?: SessionMode,
  ) {
    this.allowed = new Set(args.allowedTools);
    this.modes = modes ?? new SessionMode(sessionMode(args, runtime.opts.settings));
    this.always = new AlwaysStore(
      runtime.opts.cwd,
      (name) => runtime.route(name),
      (line) => process.stderr.write(`${ourColoursOnly(line)}\n`),
    );
  }

  /** Interrupts the turn running, if any (Esc at a question a server asked). */
  interrupt(): void {
    this.interruptTurn?.();
  }

  /** The status line says `phase` until the returned call (a server's question to the user); nothing when no turn runs. */
  waitingForUser(phase: string): () => void {
    return this.waiting?.(phase) ?? (() => undefined);
  }

  /** Handles one submitted line; "exit" when the user asked to leave. Never throws. */
  async run(line: string | ContentBlock[]): Promise<"exit" | undefined> {
    const { runtime, state, term, style } = this;
    const cwd = runtime.opts.cwd;
    const status = new TurnStatus((l) => term.setStatus(l), style);
    const view = this.view(status);
    const controller = new AbortController();
    const interrupt = () => controller.abort(new TurnInterrupted());
    this.interruptTurn = interrupt;
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
    const askUser = async (question: string, body: string[]) => {
      // Claude Code's Notification hook: the session waits for the user.
      void runtime.opts.settings?.notify("permission_prompt", question.trim());
      view.endLine();
      status.asking("Waiting for your answer…");
      try {
        return await term.ask(question, body);
      } finally {
        view.resumeStatus();
      }
    };
    try {
      const outcome = await runTurn(
        {
          runtime,
          conversation: state.conversation,
          toolState: state.tools,
          builtins: REPL_BUILTINS,
          builtinsWithoutServers: REPL_BUILTINS,
          debug: this.args.debug,
          checkpoints: state.checkpoints,
        },
        {
          input: line,
          interrupt: controller.signal,
          permissions: sessionPermissions({
            cwd,
            allowed: this.allowed,
            mode: () => this.modes.current,
            signal: controller.signal,
            ask: (question, body) => askUser(style.yellow(question), body),
            // ExitPlanMode's question is the plan's approval (plan-approval.ts); AskUserQuestion's, the picker (ask-user.ts).
            userTool: (tool, input) => {
              if (tool.name === "ExitPlanMode")
                return approvePlan({
                  planFile: planFilePath(),
                  modes: this.modes,
                  style,
                  columns: process.stdout.columns ?? 80,
                  ask: askUser,
                  onInterrupt: interrupt,
                });
              if (tool.name !== "AskUserQuestion") return undefined;
              view.endLine();
              status.asking("Waiting for your answer…");
              return askUserQuestions(input, term, style).finally(() => view.resumeStatus());
            },
            preview: (tool, input) => permissionPreview(tool.name, input, { cwd, style, mcpRoute: (name) => runtime.route(name) }),
            onInterrupt: interrupt,
            matches: (toolName, rule) => runtime.matchesRule(toolName, rule),
            granted: () => runtime.skillGrants(),
            grantRules: () => runtime.skillRules(),
            grantsCall: (tool, input) => runtime.skillGrantsCall(tool.name, input),
            always: this.always,
          }),
          events: {
            line: (text) => view.line(text),
            onWaitingForServers: (names) => {
              view.line(style.dim(`Waiting for MCP servers still connecting: ${names}`));
              status.set(`Waiting for ${names}…`);
            },
            onUserMessage: () => status.set("Thinking…"),
            onText: (delta) => view.text(delta),
            onAssistant: (reply) => view.callDone(reply.usage?.output_tokens),
            onCompact: (info) => view.line(style.dim(describeCompaction(info))),
            onToolStart: view.toolStart,
            onToolProgress: view.toolProgress,
            onToolEnd: view.toolEnd,
            onSubagent: subagentView(view, status, (s) => style.dim(s)),
          },
        },
      );
      view.endLine();
      switch (outcome.kind) {
        case "builtin": {
          status.stop();
          if (outcome.name === "rewind") return void (await (await import("./rewind.ts")).rewindDialog(state, term, style, cwd));
          const out = await runBuiltin(outcome.name, outcome.args, runtime, state, controller.signal);
          if (out === "exit") return "exit";
          term.print(out);
          return undefined;
        }
        case "interrupted":
          view.line(style.yellow("Interrupted."));
          return undefined;
        case "max_turns":
          view.line(style.red(`error: ${outcome.error.message}`));
          return undefined;
        case "error":
          view.line(
            style.red(
              `error: ${outcome.error instanceof InputError || outcome.error instanceof ModelError ? outcome.error.message : errorMessage(outcome.error)}`,
            ),
          );
          if (outcome.rolledBack) view.line(style.yellow("This turn was discarded: the conversation is as it was before it."));
          return undefined;
        case "success":
          return undefined;
      }
    } catch (err) {
      view.endLine();
      view.line(controller.signal.aborted ? style.yellow("Interrupted.") : style.red(`error: ${errorMessage(err)}`));
      return undefined;
    } finally {
      this.waiting = undefined;
      this.interruptTurn = undefined;
      status.stop();
      term.idle();
    }
  }

  private view(status: TurnStatus): TurnView {
    const { runtime, term, style } = this;
    const cwd = runtime.opts.cwd;
    return new TurnView(
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
  }
}
