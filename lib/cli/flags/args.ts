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
  if (values["rewind-overwrite"] && values["rewind-files"] === undefined) throw new UsageError("--rewind-overwrite needs --rewind-files <message uuid>");
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
