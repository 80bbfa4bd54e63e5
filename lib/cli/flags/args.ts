/**
 * Command-line flags, parsed with util.parseArgs. Names follow Claude Code's where it has them.
 */
import { parseArgs } from "node:util";
import { ignoredSdkFlags, SDK_IGNORED } from "./sdk-flags.ts";
import type { CompiledSchema } from "../../tools/json-schema.ts";
import { splitRuleList } from "../../agent/permissions/flag-rules.ts";
import { ELICITATION_POLICIES, type ElicitationPolicy, isElicitationPolicy } from "../../agent/elicitation-policy.ts";

/** The version `--version` prints (package.json's). */
export { VERSION } from "./version.ts";

/** The `--help` text. */
export const USAGE = `Usage: agent [options] [prompt]
       agent -p "prompt"               one prompt, print the final answer, exit
       agent                           interactive session (on a terminal)
       agent mcp <add|add-json|remove> …  manage MCP servers (local, project or user scope)
       agent mcp <list|get|tools|prompts|resources|call|prompt|read|tasks|task|skills|skill> …   inspect MCP servers, no model needed
       agent mcp <login|logout|approve> …  log in to a remote server, forget its tokens, approve a project's .mcp.json servers
       agent mcp-init [FIXTURE]        print the MCP initialize request for a grader fixture

Options:
  -p, --print                   print mode: answer the prompt (argument or stdin) and exit
  --model <id>                  model (default: $ANTHROPIC_MODEL, else the settings' model, else claude-sonnet-4-6)
  --output-format <fmt>         text (default), json or stream-json (print mode)
  --max-turns <n>               stop after n model calls (exit 1)
  --mcp-config <file|json>      extra MCP servers (repeatable)
  --settings <file|json>        settings over the project's and user's (Claude Code's settings.json format)
  --setting-sources <list>      which settings files to read: user, project, local (comma separated; "" for none)
  --strict-mcp-config           use only --mcp-config servers, not .mcp.json
  --allowedTools <names>        tools that need no permission (comma or space separated)
  --disallowedTools <names>     tools removed from the model's list; mcp__<server> names a whole server
  --tools <names>               the built-in tools offered ("" none, "default" all; comma or space separated)
  --agents <json|file>          subagent types for the Agent tool ({"name": {"description", "prompt", "tools", "model"}}; with -p also a file)
  --system-prompt <text>        replace the system prompt
  --append-system-prompt <text> append to the system prompt
  --dangerously-skip-permissions  never ask before running tools (interactive)
  --no-sampling                 refuse MCP servers' sampling/createMessage requests
  --elicitation <policy>        answer MCP servers' input forms with nobody to ask: accept-defaults, decline or cancel
  -c, --continue                continue the newest conversation of this directory
  -r, --resume [id]             resume a conversation by id (without one, on a terminal: pick one)
  --session-id <uuid>           the id of the new conversation
  --fork-session                with --continue/--resume: go on in a new session, leaving the old one as it was
  --no-session-persistence      save nothing of this conversation
  --rewind-files <message id>   with -p --resume <id>: put the files the agent changed back as they were at that user message
  --rewind-overwrite            with --rewind-files: go on even over files changed since by someone other than the agent
  --no-cache                    send no prompt-caching breakpoints (also DISABLE_PROMPT_CACHING=1)
  --input-format <fmt>          text (default) or stream-json: JSON messages on stdin (the Agent SDK's host protocol)
  --permission-mode <mode>      default, acceptEdits, bypassPermissions, dontAsk or plan (read and plan only; print mode runs every tool without it)
  --permission-prompt-tool stdio  ask the host program (stream-json input) before tools that need permission
  --include-partial-messages    stream-json: also the model's stream events as they arrive
  --json-schema <json|file>     end with an answer matching this JSON Schema (the result's structured_output)
  --verbose                     server stderr and start-up progress on stderr
  --debug                       also the JSON-RPC traffic on stderr
  -v, --version                 print the version
  -h, --help                    print this help

In the session Shift+Tab cycles default, accept edits and plan mode; the model keeps a task list
(TaskCreate…; in -p with CLAUDE_CODE_ENABLE_TODO_TOOLS=1, TodoWrite with CLAUDE_CODE_ENABLE_TASKS=0)
and may ask you multiple-choice questions (AskUserQuestion; not in -p).`;

export type OutputFormat = "text" | "json" | "stream-json";
export type PermissionModeFlag = "default" | "acceptEdits" | "bypassPermissions" | "dontAsk" | "plan";

export interface CliArgs {
  print: boolean;
  prompt?: string;
  model?: string;
  outputFormat: OutputFormat;
  maxTurns?: number;
  mcpConfig: string[];
  strictMcpConfig: boolean;
  /** `--settings`: a settings file or a JSON object's text. */
  settings?: string;
  /**
   * `--setting-sources`: user, project, local, comma separated (the Agent SDK's `settingSources`).
   * Skills follow it too (no `project`: no project skills); undefined: all.
   */
  settingSources?: string;
  allowedTools: string[];
  disallowedTools: string[];
  /** `--tools`: the built-in tools offered (offered-tools.ts), as given. */
  tools?: string;
  /** `--agents`: subagent types as a JSON object's text (with -p, or a file holding one). */
  agents?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  skipPermissions: boolean;
  sampling: boolean;
  /** `--elicitation`: the headless answer to servers' form requests; absent, elicitation is not declared. */
  elicitation?: ElicitationPolicy;
  /** Prompt-caching breakpoints; false with --no-cache. */
  cache: boolean;
  verbose: boolean;
  debug: boolean;
  continue: boolean;
  /** `--resume <id>`; "" for a bare `--resume` (the interactive picker). */
  resume?: string;
  sessionId?: string;
  forkSession: boolean;
  persistSession: boolean;
  /** `--rewind-files <user message id>`: a standalone rewind of the resumed session's files (-p). */
  rewindFiles?: string;
  /** `--rewind-overwrite`: the rewind goes on over files the user changed since. */
  rewindOverwrite: boolean;
  inputFormat: "text" | "stream-json";
  permissionMode?: PermissionModeFlag;
  /** `--permission-prompt-tool stdio`: permission questions go to the host as can_use_tool. */
  permissionPromptStdio: boolean;
  includePartialMessages: boolean;
  /** `--json-schema`: the schema's JSON text or file, as given (index.ts compiles it into `outputSchema`). */
  jsonSchema?: string;
  /** The compiled `--json-schema`: the model must end by calling StructuredOutput with a matching input. */
  outputSchema?: CompiledSchema;
  /** Agent SDK flags given that we accept and ignore (sdk-flags.ts), as `--name`. */
  ignoredFlags: string[];
  version: boolean;
  help: boolean;
}

/**
 * util.parseArgs' messages are long and end in advice about `--`; ours name the flag and stop,
 * pointing an unknown one at `help` (the command that lists the flags).
 */
export function describeParseError(err: Error & { code?: string }, help = "--help"): string {
  const flag = /'(-[^']*)'/.exec(err.message)?.[1];
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) return `unknown option ${flag} (see ${help})`;
  if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
    // "-p, --print" names both spellings: the long one says more.
    const names = flag.split(/[\s,]+/);
    const name = names.find((n) => n.startsWith("--")) ?? names[0];
    return /does not take an argument/.test(err.message) ? `option ${name} takes no value` : `option ${name} needs a value`;
  }
  return err.message.split("\n")[0]!;
}

/** A flag the user got wrong; the CLI prints its message on one stderr line and exits 2. */
export class UsageError extends Error {}

/**
 * `--elicitation <policy>` (here and in `agent mcp …`): the policy, or undefined when the flag is absent.
 * @throws UsageError for any other value.
 */
export function parseElicitationFlag(value: string | undefined): ElicitationPolicy | undefined {
  if (value === undefined || isElicitationPolicy(value)) return value;
  throw new UsageError(`--elicitation must be ${ELICITATION_POLICIES.slice(0, -1).join(", ")} or ${ELICITATION_POLICIES.at(-1)} (got "${value}")`);
}

const options = {
  print: { type: "boolean", short: "p" },
  model: { type: "string" },
  "output-format": { type: "string" },
  "max-turns": { type: "string" },
  "mcp-config": { type: "string", multiple: true },
  "strict-mcp-config": { type: "boolean" },
  settings: { type: "string" },
  "setting-sources": { type: "string" },
  allowedTools: { type: "string", multiple: true },
  "allowed-tools": { type: "string", multiple: true },
  disallowedTools: { type: "string", multiple: true },
  "disallowed-tools": { type: "string", multiple: true },
  tools: { type: "string" },
  agents: { type: "string" },
  "system-prompt": { type: "string" },
  "append-system-prompt": { type: "string" },
  "dangerously-skip-permissions": { type: "boolean" },
  "no-sampling": { type: "boolean" },
  elicitation: { type: "string" },
  "no-cache": { type: "boolean" },
  verbose: { type: "boolean" },
  debug: { type: "boolean" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string", short: "r" },
  "session-id": { type: "string" },
  "fork-session": { type: "boolean" },
  "no-session-persistence": { type: "boolean" },
  "rewind-files": { type: "string" },
  "rewind-overwrite": { type: "boolean" },
  "input-format": { type: "string" },
  "permission-mode": { type: "string" },
  "permission-prompt-tool": { type: "string" },
  "include-partial-messages": { type: "boolean" },
  "json-schema": { type: "string" },
  ...SDK_IGNORED,
  version: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Parses argv (without the executable and script). Positionals are joined into the prompt.
 * @throws UsageError for an unknown flag, a missing value or a bad value.
 */
export function parseCliArgs(argv: string[]): CliArgs {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: negativeValues(bareResume(argv)), options, allowPositionals: true, strict: true }));
  } catch (err) {
    throw new UsageError(describeParseError(err as Error & { code?: string }));
  }
  if (values.model !== undefined && !(values.model as string).trim()) throw new UsageError("--model needs a model id");
  const format = (values["output-format"] as string | undefined) ?? "text";
  if (!["text", "json", "stream-json"].includes(format)) {
    throw new UsageError(`--output-format must be text, json or stream-json (got "${format}")`);
  }
  let maxTurns: number | undefined;
  if (values["max-turns"] !== undefined) {
    maxTurns = Number(values["max-turns"]);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) {
      throw new UsageError(`--max-turns must be a whole number of at least 1 (got "${values["max-turns"]}")`);
    }
  }
  const inputFormat = (values["input-format"] as string | undefined) ?? "text";
  if (inputFormat !== "text" && inputFormat !== "stream-json") throw new UsageError(`--input-format must be text or stream-json (got "${inputFormat}")`);
  if (inputFormat === "stream-json" && format !== "stream-json") throw new UsageError("--input-format stream-json needs --output-format stream-json");
  const mode = values["permission-mode"] as string | undefined;
  if (mode !== undefined && !["default", "acceptEdits", "bypassPermissions", "dontAsk", "plan"].includes(mode)) {
    throw new UsageError(`--permission-mode must be default, acceptEdits, bypassPermissions, dontAsk or plan (got "${mode}")`);
  }
  const promptTool = values["permission-prompt-tool"] as string | undefined;
  if (promptTool !== undefined && promptTool !== "stdio") {
    throw new UsageError(`--permission-prompt-tool: only "stdio" is supported (got "${promptTool}")`);
  }
  if (promptTool !== undefined && inputFormat !== "stream-json") throw new UsageError("--permission-prompt-tool stdio needs --input-format stream-json");
  if (values["rewind-files"] !== undefined && !values.print)
    throw new UsageError("--rewind-files works with -p (agent -p --resume <session id> --rewind-files <message id>)");
  const list = (...keys: string[]) => keys.flatMap((k) => ((values[k] as string[] | undefined) ?? []).flatMap(splitRuleList));
  return {
    print: Boolean(values.print),
    prompt: positionals.length ? positionals.join(" ") : undefined,
    model: values.model as string | undefined,
    outputFormat: format as OutputFormat,
    maxTurns,
    mcpConfig: (values["mcp-config"] as string[] | undefined) ?? [],
    strictMcpConfig: Boolean(values["strict-mcp-config"]),
    settings: values.settings as string | undefined,
    settingSources: values["setting-sources"] as string | undefined,
    allowedTools: list("allowedTools", "allowed-tools"),
    disallowedTools: list("disallowedTools", "disallowed-tools"),
    tools: values.tools as string | undefined,
    agents: values.agents as string | undefined,
    systemPrompt: values["system-prompt"] as string | undefined,
    appendSystemPrompt: values["append-system-prompt"] as string | undefined,
    skipPermissions: Boolean(values["dangerously-skip-permissions"]),
    sampling: !values["no-sampling"],
    elicitation: parseElicitationFlag(values.elicitation as string | undefined),
    cache: !values["no-cache"],
    verbose: Boolean(values.verbose || values.debug),
    debug: Boolean(values.debug),
    continue: Boolean(values.continue),
    resume: values.resume as string | undefined,
    sessionId: values["session-id"] as string | undefined,
    forkSession: Boolean(values["fork-session"]),
    persistSession: !values["no-session-persistence"],
    rewindFiles: values["rewind-files"] as string | undefined,
    rewindOverwrite: Boolean(values["rewind-overwrite"]),
    inputFormat,
    permissionMode: mode as PermissionModeFlag | undefined,
    permissionPromptStdio: promptTool === "stdio",
    includePartialMessages: Boolean(values["include-partial-messages"]),
    jsonSchema: values["json-schema"] as string | undefined,
    ignoredFlags: ignoredSdkFlags(values),
    version: Boolean(values.version),
    help: Boolean(values.help),
  };
}

/**
 * A number flag followed by a negative number (`--max-turns -1`) takes it as its value, so the
 * flag's own check names the rule; util.parseArgs would read `-1` as a flag and say the value is missing.
 */
function negativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (a === "--max-turns" && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** `--resume` (or `-r`) with no value after it, at the end or before another flag, is the picker: `--resume=`. */
function bareResume(argv: string[]): string[] {
  const end = argv.includes("--") ? argv.indexOf("--") : argv.length;
  return argv.map((a, i) => ((a === "--resume" || a === "-r") && i < end && (i === end - 1 || argv[i + 1]!.startsWith("-")) ? "--resume=" : a));
}

/**
 * `agent [flags] mcp …` is the inspector: returns its argv (every flag kept, the `mcp` word
 * removed), or undefined when the command line is not an inspector one. The first positional
 * decides, found with this CLI's own option definitions so a flag's value (`--model mcp`) is not
 * taken for it; with `-p`/`--print` anywhere, or `--` before it, "mcp" is a prompt. Never throws:
 * the inspector reports flags it does not know as usage errors.
 */
export function inspectorArgv(argv: string[]): string[] | undefined {
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  if (tokens.some((t) => t.kind === "option" && t.name === "print")) return undefined;
  for (const t of tokens) {
    if (t.kind === "option-terminator") return undefined;
    if (t.kind === "positional") return t.value === "mcp" ? [...argv.slice(0, t.index), ...argv.slice(t.index + 1)] : undefined;
  }
  return undefined;
}
