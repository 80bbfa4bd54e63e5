/**
 * The interactive session (no -p, stdin a terminal): a prompt with line editing, history and Tab
 * completion; each input goes through the shared input path (parseInput) and the tool-use loop on
 * the running conversation, with streamed model text, one line per tool call, and permission
 * prompts. Esc or Ctrl-C interrupts a turn; Ctrl-C twice or Ctrl-D leaves; servers are shut down on exit.
 */
import type { CliArgs } from "../flags/args.ts";
import { runtimeOptions } from "../flags/runtime-options.ts";
import { askSettingsTrust, trustHook } from "./trust.ts";
import { AgentRuntime } from "../../agent/runtime.ts";
import { ToolState } from "../../tools/tool-state.ts";
import { ModelError } from "../../agent/model.ts";
import { McpConfigFlagError } from "../../agent/runtime-options.ts";
import { onShutdown, shutdown } from "../../agent/lifecycle.ts";
import { loadSettings } from "../flags/settings.ts";
import { colorEnabled, createStyle } from "../ui/style.ts";
import { StartupStatus } from "../ui/startup-status.ts";
import { History, historyPath } from "./history.ts";
import { PROMPT, Terminal } from "./terminal.ts";
import { createCompleter } from "./complete.ts";
import { completionSources } from "./complete-sources.ts";
import { ServerProgress } from "./servers.ts";
import { samplingConsent } from "./sampling.ts";
import { skillConsent } from "./skill-consent.ts";
import type { Skill } from "../../agent/skills/types.ts";
import { deferredElicitation } from "./elicitation.ts";
import type { SamplingConsent } from "../../agent/mcp/sampling.ts";
import { openRunSession, SessionError } from "../flags/session-flags.ts";
import type { OpenedSession } from "../../agent/sessions/session-open.ts";
import type { ReplState } from "./commands.ts";
import { TurnRunner } from "./turn-runner.ts";
import { sessionMode } from "./permission.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";

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
    const resume = args.resume === "" ? await (await import("./picker.ts")).pickSession(cwd) : args.resume;
    if (resume === null) return 0;
    session = openRunSession(args, cwd, (line) => process.stderr.write(`${ourColoursOnly(line)}\n`), resume);
  } catch (err) {
    if (!(err instanceof SessionError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return err.usage ? 2 : 1;
  }
  // What a repository's own settings loosen applies only once approved (hooks run commands).
  const loaded = await loadSettings(
    args,
    cwd,
    // Settings warnings quote a repository's files: only colour codes reach the terminal.
    (line) => process.stderr.write(`${ourColoursOnly(line)}\n`),
    (pending) => askSettingsTrust(pending),
  );
  if (loaded.usage) {
    process.stderr.write(`error: ${loaded.usage}\n`);
    return 2;
  }
  const settings = loaded.hooks;
  if (args.resume !== undefined || args.continue) settings?.restart("resume");
  settings?.identify(session.conversation.sessionId, session.path, sessionMode(args, settings));
  if (settings) onShutdown(() => settings.sessionEnd("prompt_input_exit"));
  // Leaving while servers connect (Ctrl-C, SIGTERM) must not leave the live line half-drawn.
  const dropStatus = onShutdown(async () => status.abandon());
  // Servers connect in the background: the prompt comes at once (see servers.ts).
  let started: AgentRuntime | undefined;
  const progress = new ServerProgress(style, () => started);
  let consent: SamplingConsent | undefined;
  let skillQuestion: ((skill: Skill) => Promise<string | undefined>) | undefined;
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
          // Asked once the terminal exists; a skill the model loads before then is refused.
          skillGate: (skill) => skillQuestion?.(skill) ?? `The skill ${skill.name} needs permission and the session is not ready to ask.`,
        },
        session.savedModel,
        settings,
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
  session.start(runtime.model.model);
  runtime.pinRoutes(session.conversation.routes);
  const state: ReplState = { conversation: session.conversation, session, tools: new ToolState(cwd) };
  const resumedTurns = state.conversation.turns;
  if (resumedTurns) term.print((await import("./resume.ts")).resumedScreen(state.conversation, style, cwd, process.stdout.columns ?? 80));
  const turn = new TurnRunner(runtime, state, term, style, args);
  // Asked as a permission question is: the status line waits for the answer, and Esc refuses and ends the turn.
  consent = samplingConsent(async (question, body) => {
    const resume = turn.waitingForUser("Waiting for your answer…");
    try {
      const line = await term.ask(style.yellow(question), body);
      if (line === null) turn.interrupt();
      return line;
    } finally {
      resume();
    }
  }, style);
  skillQuestion = skillConsent(
    async (question) => {
      const resume = turn.waitingForUser("Waiting for your answer…");
      try {
        const line = await term.ask(question, []);
        if (line === null) turn.interrupt();
        return line;
      } finally {
        resume();
      }
    },
    style,
    args.allowedTools,
    sessionMode(args, settings),
    settings,
  );
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
