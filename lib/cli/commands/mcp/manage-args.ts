/**
 * The command lines of `agent mcp add | add-json | remove` (Claude Code's spelling), parsed with
 * util.parseArgs into the entry to write. Everything after `--` belongs to the server, so a server
 * argument that looks like a flag is never taken for ours; an option that takes a value takes
 * exactly one word, so repeated `-e` never swallows the server name.
 */
import { parseArgs } from "node:util";
import type { Scope } from "../../../mcp/config/scopes.ts";
import { describeParseError, UsageError } from "../../flags/args.ts";
import { isObject } from "../../../shared/values.ts";

export const MANAGE_COMMANDS = ["add", "add-json", "remove"] as const;
export type ManageCommandName = (typeof MANAGE_COMMANDS)[number];

export const MANAGE_USAGE = {
  add: "usage: agent mcp add [--scope local|project|user] [-e KEY=VALUE]… <name> -- <command> [args…]\n       agent mcp add --transport http|sse [--scope …] [-H 'Header: value']… [--client-id ID] [--client-secret] [--callback-port N] <name> <url>",
  "add-json": "usage: agent mcp add-json [--scope local|project|user] [--client-secret] <name> '<json>'",
  remove: "usage: agent mcp remove [--scope local|project|user] <name>",
} satisfies Record<ManageCommandName, string>;

export type ManageArgs =
  | { command: "add" | "add-json"; scope: Scope; name: string; entry: Record<string, unknown>; clientSecret: boolean }
  | { command: "remove"; scope?: Scope; name: string };

/** Server names `add` accepts: what Claude Code allows, and what an API tool name can carry. */
const NAME = /^[A-Za-z0-9_-]+$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An HTTP header line: an RFC 9110 token, a colon, the value. */
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/;
export const TRANSPORTS = ["stdio", "http", "sse"] as const;

/**
 * Parses the words after `mcp <command>`.
 * @throws UsageError (one line) for anything wrong: the caller prints it and exits 2, writing nothing.
 */
export function parseManageArgs(command: ManageCommandName, argv: string[]): ManageArgs {
  const dash = argv.indexOf("--");
  const before = dash === -1 ? argv : argv.slice(0, dash);
  const after = dash === -1 ? undefined : argv.slice(dash + 1);
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: before,
      allowPositionals: true,
      strict: true,
      options: {
        scope: { type: "string", short: "s" },
        ...(command === "remove"
          ? {}
          : {
              "client-secret": { type: "boolean" },
              ...(command === "add"
                ? {
                    transport: { type: "string", short: "t" },
                    env: { type: "string", short: "e", multiple: true },
                    header: { type: "string", short: "H", multiple: true },
                    "client-id": { type: "string" },
                    "callback-port": { type: "string" },
                  }
                : {}),
            }),
      },
    }));
  } catch (err) {
    throw new UsageError(`mcp ${command}: ${describeParseError(err as Error & { code?: string }, "agent mcp --help")}`);
  }
  const fail = (message: string): never => {
    throw new UsageError(`mcp ${command}: ${message}`);
  };
  const scope = parseScope(values.scope as string | undefined, fail);
  // Option values first: `-e NAME -- cmd` is a bad -e, not a missing name.
  const env = parseEnv((values.env as string[] | undefined) ?? [], fail);
  const name = positionals[0];
  if (name === undefined) fail(`missing server name (${MANAGE_USAGE[command].split("\n")[0]!.replace(/^usage: /, "")})`);
  if (!NAME.test(name!)) fail(`server name "${name}" may hold only letters, digits, "_" and "-"`);
  if (command === "remove") {
    if (positionals.length > 1 || after !== undefined) fail(`unexpected "${positionals[1] ?? "--"}" (${MANAGE_USAGE.remove.replace(/^usage: /, "")})`);
    return { command, scope, name: name! };
  }
  const clientSecret = Boolean(values["client-secret"]);
  if (command === "add-json") {
    if (after !== undefined) fail('unexpected "--": the entry is one JSON argument');
    if (positionals.length !== 2) fail(positionals.length < 2 ? "missing the JSON entry" : `unexpected "${positionals[2]}" after the JSON entry`);
    return { command, scope: scope ?? "local", name: name!, entry: parseJsonEntry(positionals[1]!, fail), clientSecret };
  }
  const transport = (values.transport as string | undefined) ?? "stdio";
  if (!(TRANSPORTS as readonly string[]).includes(transport)) fail(`unknown transport "${transport}" (stdio, http or sse)`);
  const headers = values.header as string[] | undefined;
  if (transport === "stdio") {
    for (const flag of ["header", "client-id", "client-secret", "callback-port"]) {
      if (values[flag] !== undefined) fail(`--${flag} is for http and sse servers (add --transport http)`);
    }
    if (after === undefined) {
      fail(`missing "--" before the server's command (agent mcp add ${name} -- <command> [args…])`);
    }
    if (positionals.length > 1) fail(`unexpected "${positionals[1]}" before "--": only the server name goes there`);
    if (after!.length === 0 || after![0] === "") fail('missing the server\'s command after "--"');
    const entry: Record<string, unknown> = { type: "stdio", command: after![0], args: after!.slice(1), env };
    return { command, scope: scope ?? "local", name: name!, entry, clientSecret: false };
  }
  if (Object.keys(env).length) fail(`-e is for stdio servers; an ${transport} server takes -H "Header: value"`);
  if (after !== undefined) fail(`an ${transport} server takes <name> <url>, without "--"`);
  if (positionals.length < 2) fail(`missing the server's URL (agent mcp add --transport ${transport} ${name} <url>)`);
  if (positionals.length > 2) fail(`unexpected "${positionals[2]}" after the URL`);
  const url = positionals[1]!;
  if (!isHttpUrl(url)) fail(`"${url}" is not an http:// or https:// URL`);
  const entry: Record<string, unknown> = { type: transport, url };
  if (headers?.length) entry.headers = parseHeaders(headers, fail);
  const oauth: Record<string, unknown> = {};
  if (values["client-id"] !== undefined) oauth.clientId = values["client-id"];
  if (values["callback-port"] !== undefined) oauth.callbackPort = parsePort(values["callback-port"] as string, fail);
  if (Object.keys(oauth).length) entry.oauth = oauth;
  return { command, scope: scope ?? "local", name: name!, entry, clientSecret };
}

function parseScope(value: string | undefined, fail: (m: string) => never): Scope | undefined {
  if (value === undefined) return undefined;
  if (value === "local" || value === "project" || value === "user") return value;
  return fail(`unknown scope "${value}" (local, project or user)`);
}

function parseEnv(pairs: string[], fail: (m: string) => never): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (eq === -1 || !ENV_KEY.test(key)) fail(`-e "${pair}": expected KEY=VALUE`);
    env[key] = pair.slice(eq + 1);
  }
  return env;
}

function parseHeaders(lines: string[], fail: (m: string) => never): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = HEADER.exec(line);
    if (!match) fail(`-H "${line}": expected "Name: value"`);
    headers[match![1]!] = match![2]!.trimEnd();
  }
  return headers;
}

function parsePort(value: string, fail: (m: string) => never): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535) fail(`--callback-port must be a port number from 1 to 65535 (got "${value}")`);
  return port;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** `add-json`'s entry: a JSON object of a known transport with what that transport needs. */
function parseJsonEntry(text: string, fail: (m: string) => never): Record<string, unknown> {
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch (err) {
    return fail(`invalid JSON: ${(err as Error).message.replace(/^JSON Parse error: /, "")}`);
  }
  if (typeof entry !== "object" || entry === null || Array.isArray(entry))
    return fail('the entry must be a JSON object, like {"command": "npx", "args": ["-y", "pkg"]}');
  const e = entry as Record<string, unknown>;
  const type = e.type ?? (e.url !== undefined && e.command === undefined ? "http" : "stdio");
  if (typeof type !== "string" || !(TRANSPORTS as readonly string[]).includes(type)) fail(`unknown transport ${JSON.stringify(e.type)} (stdio, http or sse)`);
  if (type === "stdio") {
    if (typeof e.command !== "string" || e.command.trim() === "") fail('a stdio entry needs "command" (a non-empty string)');
    if (e.args !== undefined && (!Array.isArray(e.args) || e.args.some((a) => typeof a !== "string"))) fail('"args" must be an array of strings');
    if (e.env !== undefined && !isStringMap(e.env)) fail('"env" must be an object of strings');
  } else {
    if (typeof e.url !== "string" || !isHttpUrl(e.url)) fail(`an ${type} entry needs "url" (an http:// or https:// URL)`);
    if (e.headers !== undefined && !isStringMap(e.headers)) fail('"headers" must be an object of strings');
  }
  return e;
}

function isStringMap(v: unknown): boolean {
  return isObject(v) && Object.values(v).every((x) => typeof x === "string");
}
