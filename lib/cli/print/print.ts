/**
 * `-p` print mode: one prompt (argument, stdin, or both), one turn (lib/agent/turn/turn.ts), the final answer on
 * stdout, diagnostics on stderr. Non-streaming model requests, as scripted graders expect.
 * Exit codes: 0 success; 1 the run failed (model error, bad input, --max-turns).
 */
import type { CliArgs } from "../flags/args.ts";
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import { InputError } from "../../agent/input/input.ts";
import { ToolState } from "../../tools/tool-state.ts";
import { ModelError } from "../../agent/model/model.ts";
import { describeUsage, zeroUsage } from "../../agent/model/usage.ts";
import { describeCompaction } from "../../agent/compact.ts";
import { fatalLine, shutdownSignal } from "../../agent/lifecycle.ts";
import { readPipedStdin, STDIN_GRACE_MS } from "../io/stdin.ts";
import { OutputWriter, type ResultEvent } from "./output.ts";
import { printBuiltin, PRINT_BUILTINS, printInputErrorLine } from "../commands/builtins.ts";
import { flagsAllow } from "../../agent/policy/gate.ts";
import { StartupStatus } from "../ui/startup-status.ts";
import { colorEnabled, createStyle } from "../ui/style.ts";
import { errorMessage } from "../../shared/values.ts";
import { runTurn } from "../../agent/turn/turn.ts";
import { skillGate } from "../../agent/policy/skill-permission.ts";
import { isStartError, Run, startExitCode } from "../run.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";
import { MaxTurnsError } from "../../agent/loop/loop.ts";
import type { TurnInput, TurnMode, TurnOutcome } from "../../agent/turn/turn-shapes.ts";
import { sandboxInitField } from "../../agent/sandboxing/run-sandbox.ts";
import { runCheckpoints } from "../../agent/checkpoints/open.ts";

const PRINT_BUILTIN_LINE = new RegExp(`^\\s*/(${[...PRINT_BUILTINS].join("|")})(\\s|$)`);

// Lines here may quote a repository's files or a server's words: only colour codes reach the terminal (terminal-text.ts).
const stderr = (line: string) => process.stderr.write(ourColoursOnly(line) + "\n");

/** `-p` with neither a prompt argument nor stdin: a usage error (exit 2). */
class NoPromptError extends InputError {}

const NO_PROMPT = 'no prompt: give one as an argument or on stdin (agent -p "…")';

/** Nobody interrupts a -p turn but a signal, which shuts the whole run down (lifecycle.ts). */
const neverInterrupted = new AbortController().signal;

type Result = {
  subtype: ResultEvent["subtype"];
  result: string;
  errors?: string[];
  /** `--json-schema` runs only: the matching StructuredOutput input, or null. */
  structured_output?: unknown;
  /** stream-json: a turn a background task's notice started (Claude Code's field). */
  origin?: { kind: "task-notification" };
};

/**
 * Runs one prompt to its end: the answer (or the --output-format events) on stdout, one line
 * per problem on stderr. Returns the exit code: 0 success; 1 the run failed (a model error, bad
 * input, --max-turns, anything unexpected), after json/stream-json printed their error result;
 * 2 a usage error (a malformed session id or flag combination, no prompt at all).
 * Servers are shut down before it returns.
 * @throws only the error of a failed stdout write other than EPIPE (index.ts prints its line).
 */
export async function runPrint(args: CliArgs): Promise<number> {
  if (args.rewindFiles !== undefined) return (await import("./rewind-files.ts")).runRewindFiles(args);
  const started = performance.now();
  const cwd = process.cwd();
  const writer = new OutputWriter(args.outputFormat);
  const run = await Run.open(args, { cwd, warn: stderr, endReason: "other" });
  if (typeof run === "number") return run;
  const conversation = run.conversation;
  writer.sessionId = conversation.sessionId;
  const stdinText = readPipedStdin(args.prompt === undefined ? undefined : STDIN_GRACE_MS);
  let runtime: AgentRuntime | undefined;
  let turns = 0;
  const finish = (r: Result) => {
    // Summed over every model call of the run, servers' sampling included; usage leaves subagents' calls out (the cost has them).
    writer.result({
      ...r,
      is_error: r.subtype !== "success",
      num_turns: turns,
      duration_ms: Math.round(performance.now() - started),
      duration_api_ms: Math.round(runtime?.model.apiMs ?? 0),
      usage: runtime?.ownUsage() ?? zeroUsage(),
      total_cost_usd: runtime ? runtime.meter.totalCostUsd() : 0,
    });
    if (args.verbose && runtime) stderr(`usage: ${describeUsage(runtime.meter)}`);
  };
  let code = 0;
  try {
    // Start-up feedback is for --verbose only: scripted runs stay quiet.
    const status = args.verbose ? new StartupStatus(process.stderr, createStyle(colorEnabled(process.stderr))) : undefined;
    // When only stdin can hold the prompt, no prompt is a usage error found before any server starts.
    let piped = args.prompt?.trim() ? undefined : await stdinText;
    if (piped !== undefined && !piped.trim()) throw new NoPromptError(NO_PROMPT);
    runtime = await run.startRuntime({
      ...run.options({ log: status?.log ?? stderr, onMcpStart: status && ((n) => status.start(n)), onMcpServerSettled: status?.settle }),
      // `-p /help`, `/mcp`, `/tools` answer without the model, so they need no key.
      modelOptional: args.prompt !== undefined && PRINT_BUILTIN_LINE.test(args.prompt),
      // A bypass mode loads a skill with allowed-tools without a rule, as Claude Code's -p does.
      skillGate: (skill) =>
        args.skipPermissions || args.permissionMode === "bypassPermissions" ? undefined : skillGate(skill, args.allowedTools, run.settings),
    });
    status?.finish(runtime.servers());
    piped ??= await stdinText;
    const prompt = [args.prompt, piped.trim() ? piped : undefined].filter((s) => s !== undefined).join("\n\n");
    const s = runtime;
    let initialised = false;
    // system/init goes out once the input is known to be a model turn (a built-in answers alone).
    const init = () => {
      if (initialised) return;
      initialised = true;
      writer.init({
        // Claude Code's init names the Agent tool `Task` (the model sees `Agent`).
        tools: s.tools().map((t) => (t === s.subagents?.tool ? "Task" : t.name)),
        cwd,
        model: s.model.model,
        mcp_servers: s.servers().map(({ name, status }) => ({ name, status })),
        ...(s.subagents ? { agents: s.subagents.agents.map((a) => a.name) } : {}),
        ...sandboxInitField(s.opts),
      });
      run.begin(s);
      writer.sessionId = conversation.sessionId;
    };
    // Background work (background-wait.ts): the first turn's mode and input serve each notice turn too.
    const registry = s.backgroundWork?.registry;
    registry?.useSession(cwd, conversation.sessionId);
    // stream-json: each task's task_started, task_updated and task_notification, as Claude Code's -p prints them.
    // Background work's modules load only in a run that has it: a plain -p run never reads them.
    if (registry && args.outputFormat === "stream-json") {
      const { taskEvents } = await import("../../agent/background/stream-events.ts");
      registry.listen((e) => {
        for (const event of taskEvents(e, conversation.sessionId)) writer.system(event);
      });
    }
    let first: [TurnMode, TurnInput] | undefined;
    const firstTurn = (mode: TurnMode, input: TurnInput) => {
      first = [mode, input];
      return runTurn(mode, input);
    };
    let outcome = await firstTurn(
      {
        runtime: s,
        conversation,
        toolState: new ToolState(cwd),
        builtins: PRINT_BUILTINS,
        maxTurns: args.maxTurns,
        debug: args.debug,
        outputSchema: args.outputSchema,
        checkpoints: await runCheckpoints(false, run, stderr),
      },
      {
        input: prompt,
        interrupt: neverInterrupted,
        // The mode comes from --permission-mode alone (never a settings defaultMode), and nobody is
        // asked: what needs permission is refused. Without the flag, everything runs.
        permissions: {
          mode: () => args.permissionMode,
          flagAllows: (tool, input) => flagsAllow(s, args.allowedTools, tool, input),
          flagRules: () => [...args.allowedTools, ...s.skillRules()],
        },
        events: {
          line: stderr,
          onUserMessage: init,
          onAssistant: (reply) => {
            turns++;
            writer.assistant(reply);
          },
          onToolResults: (m) => writer.user(m),
          onSubagent: (e) => writer.subagent(e),
          onCompact: (info) => {
            stderr(describeCompaction(info));
            writer.compact(info);
          },
          // Progress is for a person watching a terminal; scripts and pipes never see it.
          onToolProgress: process.stderr.isTTY ? (call, message) => stderr(`${call.name}: ${message}`) : undefined,
        },
      },
    );
    // stream-json marks the result of a turn a notice started, as Claude Code does.
    let byNotice = false;
    const noticeFinish = (r: Result) => finish(byNotice && args.outputFormat === "stream-json" ? { ...r, origin: { kind: "task-notification" } } : r);
    if (registry && first) {
      const [mode, input] = first;
      const { waitForBackground } = await import("./background-wait.ts");
      outcome = await waitForBackground(outcome, {
        registry,
        // --max-turns is the run's: a notice turn gets what the earlier turns left, and a stop names the flag's value.
        turn: async (text) => {
          byNotice = true;
          const max = args.maxTurns;
          const next = { ...input, input: [{ type: "text" as const, text }] };
          if (max === undefined) return runTurn(mode, next);
          const spent = { numTurns: 0, usage: zeroUsage(), costUsd: 0, apiMs: 0, denials: [] };
          const o =
            max - turns > 0 ? await runTurn({ ...mode, maxTurns: max - turns }, next) : { kind: "max_turns" as const, ...spent, error: new MaxTurnsError(max) };
          return o.kind === "max_turns" ? { ...o, error: new MaxTurnsError(max) } : o;
        },
        between: (o) => {
          if (args.outputFormat === "stream-json") report(o, noticeFinish, (name) => printBuiltin(name, s));
        },
        line: stderr,
        signal: shutdownSignal,
      });
    }
    // A signal while waiting: its handler stops the tasks and sets the exit code; no answer is printed.
    code = shutdownSignal.aborted ? 1 : report(outcome, noticeFinish, (name) => printBuiltin(name, s));
  } catch (err) {
    code = 1;
    if (shutdownSignal.aborted) {
      // A signal is shutting the run down; its handler sets the exit code and says nothing more.
    } else if (isStartError(err) || err instanceof InputError) {
      code = err instanceof NoPromptError ? 2 : startExitCode(err);
      const message = err instanceof InputError ? printInputErrorLine(err) : err.message;
      stderr(`error: ${message}`);
      finish({ subtype: "error_during_execution", result: message, errors: [message] });
    } else {
      // Unexpected (a malformed reply, a bug): still one line, and still a result object for scripts.
      stderr(fatalLine(err));
      finish({ subtype: "error_during_execution", result: errorMessage(err), errors: [errorMessage(err)] });
    }
  } finally {
    // The answer goes out first: a server slow to exit must not hold it back.
    await writer.flush();
    await run.end();
  }
  return code;
}

/** The turn's outcome as -p reports it; returns the exit code. */
function report(outcome: TurnOutcome, finish: (r: Result) => void, builtin: (name: string) => string): number {
  switch (outcome.kind) {
    case "builtin":
      finish({ subtype: "success", result: builtin(outcome.name) });
      return 0;
    case "success": {
      const structured = outcome.structured;
      if (structured?.exhausted) {
        const message = "the model gave no input matching --json-schema within MAX_STRUCTURED_OUTPUT_RETRIES calls of StructuredOutput";
        stderr(`error: ${message}`);
        finish({ subtype: "error_max_structured_output_retries", result: "", errors: [message] });
        return 1;
      }
      // With --json-schema the answer is the value's JSON (text format prints just that); null when the model only wrote text.
      if (structured && structured.value !== null)
        finish({ subtype: "success", result: JSON.stringify(structured.value), structured_output: structured.value });
      else finish({ subtype: "success", result: outcome.text, ...(structured ? { structured_output: null } : {}) });
      return 0;
    }
    case "interrupted":
      // Only a signal interrupts -p: its handler sets the exit code and says nothing more.
      return 1;
    case "max_turns":
      stderr(`error: ${outcome.error.message}`);
      finish({ subtype: "error_max_turns", result: "", errors: [outcome.error.message] });
      return 1;
    case "error": {
      const err = outcome.error;
      if (shutdownSignal.aborted) return 1;
      if (err instanceof ModelError || err instanceof InputError) {
        const message = err instanceof InputError ? printInputErrorLine(err) : err.message;
        stderr(`error: ${message}`);
        finish({ subtype: "error_during_execution", result: message, errors: [message] });
      } else {
        stderr(fatalLine(err));
        finish({ subtype: "error_during_execution", result: errorMessage(err), errors: [errorMessage(err)] });
      }
      return 1;
    }
  }
}
