/**
 * The command line of `agent mcp <command> …`, parsed with util.parseArgs.
 */
import { parseArgs } from "node:util";
import { describeParseError, parseElicitationFlag, UsageError } from "../../flags/args.ts";
import type { ElicitationPolicy } from "../../../agent/elicitation-policy.ts";
import { MANAGE_COMMANDS, type ManageCommandName } from "./manage-args.ts";

export const INSPECTOR_USAGE = `Usage: agent mcp <command> [options]
Manage MCP servers in the local (default), project (.mcp.json) or user scope, and inspect them
(every scope, --mcp-config) without a model or an API key.

Commands:
  add [--scope local|project|user] [-e KEY=VALUE]… <name> -- <command> [args…]
  add --transport http|sse [--scope …] [-H "Header: value"]… [--client-id ID] [--client-secret] [--callback-port N] <name> <url>
  add-json [--scope …] <name> '<json>'   any entry as JSON
  remove [--scope …] <name>          from the only scope that has it, or the one given
  approve <name>…                    approve this folder's .mcp.json servers, as the session's question does
  list                               every server: status (the reason when it failed, pending approval for a project server not approved), counts
  get <server>                       configuration (env values masked), capabilities, serverInfo, instructions
  tools <server>                     the server's tools and their arguments
  prompts <server>                   the server's prompts and their arguments
  resources <server>                 the server's resources
  call <server> <tool> [json-args]   call a tool with a JSON object of arguments; prints the result (a task tool's, once its task ends)
  tasks <server>                     a remote server's tasks (tasks/list): id, status, status message
  task <server> <id> [--cancel]      one task of a remote server (tasks/get); --cancel cancels it (tasks/cancel)
  prompt <server> <prompt> [args…]   get a prompt; positional arguments as in /mcp__<server>__<prompt>
  read <server> <uri>                read a resource
  skills <server>                    the skills the server serves (SEP-2640), by name and description
  skill <server> <name> [args…]      load one skill (or <name>/<path>, one of its files), verified, as the model would read it
  login <server>                     log in to a remote server (OAuth): opens $BROWSER or the system browser
  logout <server>                    forget a remote server's tokens and client registration

Options:
  --json                     the raw results as JSON on stdout
  --mcp-config <file|json>   extra MCP servers (repeatable)
  --strict-mcp-config        use only --mcp-config servers, not .mcp.json
  --elicitation <policy>     answer servers' input forms: accept-defaults, decline or cancel (else not offered)
  --cancel                   with task: cancel the task
  --verbose                  server stderr and diagnostics on stderr; a task tool's status changes
  --debug                    also the JSON-RPC traffic on stderr
  -h, --help                 print this help

Exit codes: 0 success; 1 a server failed or is unknown, a request failed, or the tool result has isError; 2 usage error, or tasks/task for a stdio server.`;

export type InspectorCommand =
  | "list"
  | "get"
  | "tools"
  | "prompts"
  | "resources"
  | "call"
  | "prompt"
  | "read"
  | "tasks"
  | "task"
  | "skills"
  | "skill"
  | "login"
  | "logout";

/** Positional arguments after the command: [min, max, usage]. */
const ARITY: Record<InspectorCommand, [number, number, string]> = {
  list: [0, 0, "list"],
  get: [1, 1, "get <server>"],
  tools: [1, 1, "tools <server>"],
  prompts: [1, 1, "prompts <server>"],
  resources: [1, 1, "resources <server>"],
  call: [2, 3, "call <server> <tool> [json-args]"],
  prompt: [2, Infinity, "prompt <server> <prompt> [args…]"],
  read: [2, 2, "read <server> <uri>"],
  tasks: [1, 1, "tasks <server>"],
  task: [2, 2, "task <server> <id> [--cancel]"],
  skills: [1, 1, "skills <server>"],
  skill: [2, Infinity, "skill <server> <name> [args…]"],
  login: [1, 1, "login <server>"],
  logout: [1, 1, "logout <server>"],
};

/** Every `mcp` command, as the usage errors list them (`approve` and the scope edits are dispatched before this parser). */
const COMMAND_LIST = "add, add-json, remove, approve, list, get, tools, prompts, resources, call, prompt, read, tasks, task, skills, skill, login or logout";

export interface InspectorArgs {
  help: boolean;
  command: InspectorCommand;
  /** Positional arguments after the command. */
  operands: string[];
  json: boolean;
  mcpConfig: string[];
  strictMcpConfig: boolean;
  /** `--elicitation`: the headless answer to servers' form requests; absent, elicitation is not declared. */
  elicitation?: ElicitationPolicy;
  verbose: boolean;
  debug: boolean;
  /** `--cancel` (with `task`). */
  cancel: boolean;
}

/** `usage: agent mcp <command's usage>`. */
export function commandUsage(command: InspectorCommand): string {
  return `usage: agent mcp ${ARITY[command][2]}`;
}

/**
 * `add`, `add-json` or `remove` with the words after it, when that is the command: those have
 * their own options (manage-args.ts), and a server's own arguments after `--` must never be
 * parsed as the inspector's.
 */
export function manageCommand(argv: string[]): { command: ManageCommandName; argv: string[] } | undefined {
  const first = argv[0];
  if (first === undefined || !(MANAGE_COMMANDS as readonly string[]).includes(first)) return undefined;
  return { command: first as ManageCommandName, argv: argv.slice(1) };
}

/**
 * Parses the arguments after `mcp`. `--` ends the options (for prompt arguments that start with `-`).
 * @throws UsageError for an unknown command or flag, or a wrong number of arguments.
 */
export function parseInspectorArgs(argv: string[]): InspectorArgs {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: "boolean" },
        "mcp-config": { type: "string", multiple: true },
        "strict-mcp-config": { type: "boolean" },
        elicitation: { type: "string" },
        verbose: { type: "boolean" },
        debug: { type: "boolean" },
        cancel: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    throw new UsageError(describeParseError(err as Error & { code?: string }, "agent mcp --help"));
  }
  const [name, ...operands] = positionals;
  const common = {
    json: Boolean(values.json),
    mcpConfig: (values["mcp-config"] as string[] | undefined) ?? [],
    strictMcpConfig: Boolean(values["strict-mcp-config"]),
    elicitation: parseElicitationFlag(values.elicitation as string | undefined),
    verbose: Boolean(values.verbose || values.debug),
    debug: Boolean(values.debug),
    cancel: Boolean(values.cancel),
  };
  if (values.help) return { help: true, command: "list", operands: [], ...common };
  if (name === undefined) throw new UsageError(`missing command (${COMMAND_LIST})`);
  if (!Object.hasOwn(ARITY, name)) throw new UsageError(`unknown command "${name}" (${COMMAND_LIST})`);
  const command = name as InspectorCommand;
  const [min, max] = ARITY[command];
  if (operands.length < min || operands.length > max) throw new UsageError(commandUsage(command));
  if (common.cancel && command !== "task") throw new UsageError(`--cancel goes with task (${commandUsage("task")})`);
  return { help: false, command, operands, ...common };
}

/** `call`'s json-args: an object, or the one-line reason it is not. */
export function parseToolArguments(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `arguments are not valid JSON: ${(err as Error).message}`;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return `arguments must be a JSON object, like {"text":"hi"} (got ${text.slice(0, 40)})`;
  return value as Record<string, unknown>;
}
