/**
 * Built-in slash commands in print mode: they answer on stdout without a model call.
 */
import { noServersLine } from "../ui/server-lines.ts";
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import { listCustomCommands } from "../../agent/input/custom-commands.ts";
import { promptCommands } from "../../agent/mcp/names.ts";
import { skillsList } from "./skills-list.ts";
import { type InputError, UnknownCommandError } from "../../agent/input/input.ts";

/** Built-in command names print mode answers itself, without the slash. */
export const PRINT_BUILTINS: ReadonlySet<string> = new Set(["help", "mcp", "tools", "skills"]);

/** Built-in command names of the interactive session, without the slash (print mode's and its own). */
export const SESSION_BUILTINS: ReadonlySet<string> = new Set([
  "help",
  "clear",
  "exit",
  "mcp",
  "tools",
  "skills",
  "model",
  "cost",
  "compact",
  "permissions",
  "hooks",
  "agents",
  "rewind",
  "plan",
  "todos",
  "status",
  "tasks",
]);

/** What -p offers instead of a session command, where it has something. */
const PRINT_INSTEAD: Readonly<Record<string, string>> = {
  rewind: "-p puts files back with --resume <session id> --rewind-files <message id>",
  plan: "-p plans with --permission-mode plan",
  model: "-p takes --model <id>",
};

/**
 * Print mode's line for input it cannot run: an unknown `/name` that is a command of the
 * interactive session says so (and what -p has instead) rather than only "unknown command".
 */
export function printInputErrorLine(err: InputError): string {
  if (!(err instanceof UnknownCommandError) || !SESSION_BUILTINS.has(err.command)) return err.message;
  const instead = PRINT_INSTEAD[err.command];
  return `/${err.command} is a command of the interactive session, not of -p${instead ? ` (${instead})` : ""}`;
}

/** The text a built-in command prints, ending with a newline. */
export function printBuiltin(name: string, runtime: AgentRuntime, interactive = false): string {
  switch (name) {
    case "mcp":
      return serverTable(runtime) + "\n";
    case "skills":
      return skillsList(runtime);
    case "tools":
      return (
        runtime
          .tools()
          .map((t) => t.name)
          .join("\n") + "\n"
      );
    default:
      return helpText(runtime, interactive) + "\n";
  }
}

/**
 * One line per configured MCP server, `name: connected` or `name: failed (reason)`, joined by
 * newlines without a final one; a sentence saying none are configured when there are none.
 */
export function serverTable(runtime: AgentRuntime): string {
  const servers = runtime.servers();
  if (!servers.length) return noServersLine(runtime.configProblems);
  // `linear: needs authentication (run ./your_program.sh mcp login linear)`
  return servers
    .map((s) => (s.needsAuth ? `${s.name}: ${s.error?.replace(/: run /, " (run ")})` : `${s.name}: ${s.status}${s.error ? ` (${s.error})` : ""}`))
    .join("\n");
}

/** The key bindings of the interactive prompt, as /help lists them. */
const KEYS: [string, string][] = [
  ["Enter", "send (while a turn runs: queue)"],
  ["\\ Enter, Alt+Enter, Shift+Enter", "new line"],
  ["Esc", "interrupt the turn (at a question: cancel it)"],
  ["Ctrl-C", "interrupt, or clear the input; twice to leave"],
  ["Tab", "complete /commands, @files, @server:uri"],
  ["Shift+Tab", "permission mode: default → accept edits → plan"],
  ["Up/Down", "history"],
  ["Ctrl-L", "clear the screen"],
  ["Ctrl-Z", "suspend (fg resumes)"],
  ["Ctrl-D", "leave"],
];
// One binding a line: a narrow terminal wraps nothing mid-entry.
const KEY_HELP = ["Keys:", ...KEYS.map(([key, what]) => `  ${key.padEnd(32)}${what}`)];

/** ` <required> [optional]` for a prompt's declared arguments, in order. */
function argumentHint(args: { name: string; required?: boolean }[] | undefined): string {
  return (args ?? []).map((a) => (a.required ? ` <${a.name}>` : ` [${a.name}]`)).join("");
}

/**
 * The /help text, lines joined by newlines without a final one: the built-in commands (the
 * interactive session's own only when `interactive`), then custom commands with their scope,
 * then connected servers' MCP prompts as `/mcp__<server>__<prompt> <required> [optional]`, then
 * (interactive) the key bindings.
 */
export function helpText(runtime: AgentRuntime, interactive: boolean): string {
  const lines = [
    "Commands:",
    "  /help   this list",
    "  /mcp    MCP servers and their status",
    "  /tools  the tools the model can use",
    "  /skills the skills and where each came from",
  ];
  if (interactive)
    lines.push(
      "  /mcp reconnect <server>  start that server afresh",
      "  /clear  start a new conversation",
      "  /model  show the model, or /model <id> to switch",
      "  /cost   tokens and cost so far",
      "  /compact [instructions]  summarise the conversation so far",
      "  /permissions  the settings' permission rules, each with its file",
      "  /hooks  the settings' hooks, each with its file",
      "  /agents the agent types the Agent tool can start, with their origin and tools",
      "  /rewind go back to an earlier message: code, conversation or both (also Esc twice)",
      "  /plan   turn plan mode on (read and plan, no edits), or show where the plan is",
      "  /todos  the model's task list",
      "  /status the model, the working directory, servers, and whether Bash runs in the sandbox",
      "  /tasks  background tasks; /tasks stop <id> stops one",
      "  /exit   leave",
    );
  const custom = listCustomCommands(runtime.opts.cwd);
  if (custom.length) {
    lines.push("Custom commands:");
    for (const c of custom) lines.push(`  /${c.name}  ${c.description} (${c.scope})`);
  }
  const skills = (runtime.skills?.all() ?? []).filter((s) => s.userInvocable);
  if (skills.length) {
    lines.push("Skills:");
    for (const s of skills)
      lines.push(
        `  /${s.name}${s.argumentHint ? ` ${s.argumentHint}` : ""}  ${s.description} (${s.origin.kind === "mcp" ? `MCP server ${s.origin.server}` : s.origin.kind})`,
      );
  }
  const prompts = runtime
    .mcpServers()
    .flatMap((s) =>
      s.status === "connected"
        ? [...promptCommands(s.name, s.prompts)].map(([command, p]) => ({ command: `${command}${argumentHint(p.arguments)}`, description: p.description }))
        : [],
    );
  if (prompts.length) {
    lines.push("MCP prompts:");
    for (const p of prompts) lines.push(`  /${p.command}  ${p.description ?? ""}`.trimEnd());
  }
  if (interactive) lines.push(...KEY_HELP);
  return lines.join("\n");
}
