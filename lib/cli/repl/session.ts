/**
 * The interactive session (no -p, stdin a terminal): a prompt with line editing, history and Tab
 * completion; each input goes through the shared input path (parseInput) and the tool-use loop on
 * the running conversation, with streamed model text, one line per tool call, and permission
 * prompts. Esc or Ctrl-C interrupts a turn; Ctrl-C twice or Ctrl-D leaves; servers are shut down on exit.
 */
import type { CliArgs } from "../flags/args.ts";
import { askSettingsTrust, trustHook } from "./trust-questions.ts";
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import { ToolState } from "../../tools/tool-state.ts";
import { onShutdown } from "../../agent/lifecycle.ts";
import { colorEnabled, createStyle } from "../ui/style.ts";
import { StartupStatus } from "../ui/startup-status.ts";
import { History, historyPath } from "./history.ts";
import { PROMPT, Terminal } from "./prompt/terminal.ts";
import { createCompleter } from "./prompt/complete.ts";
import { completionSources } from "./complete-sources.ts";
import { ServerProgress } from "./servers.ts";
import { samplingConsent } from "./sampling.ts";
import { skillConsent } from "./skill-consent.ts";
import type { Skill } from "../../agent/skills/skill.ts";
import { deferredElicitation } from "./elicitation.ts";
import type { SamplingConsent } from "../../agent/mcp/sampling.ts";
import { SessionError } from "../../agent/sessions/sessions.ts";
import { isStartError, Run, startExitCode } from "../run.ts";
import type { ReplState } from "./commands.ts";
import { TurnRunner } from "./turn-runner.ts";
import { sessionMode } from "./permission.ts";
import { SessionMode } from "./planning/mode-cycle.ts";
import { onTaskListChange } from "../../agent/task-list/task-list.ts";
import { taskListLines } from "../ui/task-list-view.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";
import { runCheckpoints } from "../../agent/checkpoints/open.ts";
import { domainQuestion } from "./domain-question.ts";
import { confirmExit, followTasks, noticeTurn } from "./background.ts";
import { sessionIgnoredFlagLines } from "../flags/print-only.ts";

/**
 * Runs the session until the user leaves. Returns 0 after a normal exit (servers shut down),
 * 1 when the session cannot start (no API key).
 */
export async function runRepl(args: CliArgs): Promise<number> {
  const cwd = process.cwd();
  for (const line of sessionIgnoredFlagLines(args)) process.stderr.write(`${line}\n`);
  const style = createStyle(colorEnabled(process.stderr));
  const status = new StartupStatus(process.stderr, style);
  let log = status.log;
  let runtime: AgentRuntime;
  let resume: string | null | undefined;
  try {
    resume = args.resume === "" ? await (await import("./picker.ts")).pickSession(cwd) : args.resume;
  } catch (err) {
    if (!(err instanceof SessionError)) throw err;
    process.stderr.write(`${ourColoursOnly(`error: ${err.message}`)}\n`);
    return startExitCode(err);
  }
  if (resume === null) return 0;
  let askDomain: ((host: string) => Promise<boolean>) | undefined;
  let modes: SessionMode | undefined;
  const run = await Run.open(args, {
    cwd,
    // Settings warnings quote a repository's files: only colour codes reach the terminal.
    warn: (line) => process.stderr.write(`${ourColoursOnly(line)}\n`),
    resume,
    // What a repository's own settings loosen applies only once approved (hooks run commands).
    consent: (pending) => askSettingsTrust(pending),
    // The sandbox's proxy asks about an unlisted domain once the terminal exists; before that it is refused.
    askDomain: (host) => askDomain?.(host) ?? Promise.resolve(false),
    // Hooks read the mode as it is now: Shift+Tab, /plan and an approved plan change it.
    permissionMode: (settings) => modes?.current ?? sessionMode(args, settings),
    endReason: "prompt_input_exit",
  });
  if (typeof run === "number") return run;
  const { settings, session } = run;
  // Leaving while servers connect (Ctrl-C, SIGTERM) must not leave the live line half-drawn.
  const dropStatus = onShutdown(async () => status.abandon());
  // Servers connect in the background: the prompt comes at once (see servers.ts).
  let started: AgentRuntime | undefined;
  const progress = new ServerProgress(style, () => started);
  let consent: SamplingConsent | undefined;
  let skillQuestion: ((skill: Skill) => Promise<string | undefined>) | undefined;
  const elicitation = deferredElicitation();
  try {
    runtime = await run.startRuntime(
      run.options({
        log: (line) => log(line),
        onMcpServerSettled: progress.settle,
        approveProjectServers: trustHook(cwd),
        background: true,
        samplingConsent: (server, params, signal) => consent?.(server, params, signal) ?? Promise.resolve(false),
        elicitation: elicitation.feature,
        // Asked once the terminal exists; a skill the model loads before then is refused.
        skillGate: (skill) => skillQuestion?.(skill) ?? `The skill ${skill.name} needs permission and the session is not ready to ask.`,
      }),
    );
    started = runtime;
  } catch (err) {
    if (!isStartError(err)) throw err;
    process.stderr.write(`${ourColoursOnly(`error: ${err.message}`)}\n`);
    await run.end();
    return startExitCode(err);
  }
  dropStatus();
  process.stderr.write(style.dim(`${runtime.model.model} · ${cwd} · /help for commands, Ctrl-D to leave`) + "\n");

  const history = new History(historyPath(), (line) => term.print(line));
  // Shift+Tab cycles the permission mode; the line under the prompt shows it (mode-cycle.ts).
  modes = new SessionMode(sessionMode(args, settings));
  modes.onChange = () => run.identify();
  const term = new Terminal({
    completer: createCompleter(completionSources(runtime, cwd)),
    history: history.load(),
    style,
    onShiftTab: () => modes.next(),
    modeLine: () => modes.line(),
  });
  // The task list under the conversation, redrawn whenever a task tool changes it.
  onTaskListChange((items) => term.setTasks(taskListLines(items, style, process.stdout.columns ?? 80)));
  // Servers may log at any time (a crash, a failed re-list): such lines go above the prompt.
  log = (line) => term.print(line);
  progress.attach({ setNotice: (line) => term.setNotice(line), print: (text) => term.print(text) });
  run.begin(runtime);
  const state: ReplState = {
    conversation: session.conversation,
    session,
    tools: new ToolState(cwd),
    modes,
    checkpoints: await runCheckpoints(true, run, (line) => term.print(ourColoursOnly(line))),
  };
  const resumedTurns = state.conversation.turns;
  if (resumedTurns) {
    term.print((await import("./resume.ts")).resumedScreen(state.conversation, style, cwd, process.stdout.columns ?? 80));
    const lost = (await import("../../agent/background/lost.ts")).lostTasks(state.conversation.messages);
    if (lost.length) term.print(style.dim(`Background tasks of the earlier run did not survive it (they were stopped when it ended): ${lost.join(", ")}`));
  }
  const turn = new TurnRunner(runtime, state, term, style, args, modes);
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
  askDomain = domainQuestion(async (question) => {
    const resume = turn.waitingForUser("Waiting for your answer…");
    try {
      return await term.ask(question, []);
    } finally {
      resume();
    }
  }, style);
  elicitation.attach({ term, style, waiting: (server) => turn.waitingForUser(`Waiting for your answer to ${server}…`) });
  try {
    // `agent "question"` on a terminal starts the session with that question, as Claude Code does.
    let first = args.prompt?.trim() ? args.prompt : undefined;
    if (first !== undefined) term.print(`${PROMPT}${first}`);
    // Background work (background.ts): notices become turns between the user's, /exit asks while tasks run.
    const tasks = runtime.backgroundWork?.registry;
    tasks?.useSession(cwd, state.conversation.sessionId);
    const unfollow = tasks && followTasks(tasks, term, style);
    for (;;) {
      const notice = first === undefined ? noticeTurn(tasks, style) : undefined;
      if (notice) {
        term.print(notice.line);
        await turn.run(notice.input);
        continue;
      }
      const line = first ?? (await term.readLine());
      first = undefined;
      if (line === null) break;
      if (!line.trim()) continue;
      history.add(line);
      if ((await turn.run(line)) === "exit" && (await confirmExit(tasks, term, style))) break;
    }
    unfollow?.();
  } finally {
    term.close();
  }
  await run.end();
  return 0;
}
