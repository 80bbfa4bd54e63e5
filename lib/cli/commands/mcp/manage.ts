/**
 * `agent mcp add | add-json | remove`: write or remove one server entry in a scope's file
 * (Claude Code's files and keys, see lib/mcp/config/scopes.ts). Nothing is started. Bad input is one
 * stderr line and exit 2 with nothing written; a file that cannot be changed is exit 1.
 */
import { join } from "node:path";
import { CLIENT_SECRETS_FILE, forgetClientSecret, saveClientSecret } from "../../../mcp/config/client-secrets.ts";
import { ConfigWriteError } from "../../../files/json-edit.ts";
import { addServer, removeServer, ScopeEditError } from "../../../mcp/config/scope-edit.ts";
import { scopeLabel, scopePaths } from "../../../mcp/config/scopes.ts";
import { userConfigDir } from "../../../shared/claude-home.ts";
import { UsageError } from "../../flags/args.ts";
import { type ManageArgs, type ManageCommandName, parseManageArgs } from "./manage-args.ts";
import { writeStdout } from "../../io/stdout.ts";
import { readMcpEnv } from "../../../mcp/config/env.ts";
import { ourColoursOnly } from "../../../shared/terminal-text.ts";

// The last filter: a message may quote a config file or a server; only our colours reach the terminal.
const stderr = (line: string) => process.stderr.write(`${ourColoursOnly(line)}\n`);

/** Runs `mcp <command> …argv`; returns the exit code. */
export async function runManage(command: ManageCommandName, argv: string[]): Promise<number> {
  let args: ManageArgs;
  let secret: string | undefined;
  try {
    args = parseManageArgs(command, argv);
    if (args.command !== "remove" && args.clientSecret) secret = await clientSecret(command);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    stderr(err.message);
    return 2;
  }
  const paths = scopePaths(process.cwd());
  const secretsFile = join(userConfigDir(), CLIENT_SECRETS_FILE);
  try {
    if (args.command === "remove") {
      const scope = removeServer(paths, args.name, args.scope);
      forgetClientSecret(secretsFile, args.name);
      await writeStdout(`Removed MCP server "${args.name}" from ${scope} scope (${scopeLabel(scope, paths)})\n`);
      return 0;
    }
    addServer(args.scope, paths, args.name, args.entry);
    if (secret !== undefined) saveClientSecret(secretsFile, args.name, String(args.entry.url ?? ""), secret);
    const kind = typeof args.entry.type === "string" ? args.entry.type : "stdio";
    const target = kind === "stdio" ? [args.entry.command, ...((args.entry.args as string[] | undefined) ?? [])].join(" ") : String(args.entry.url);
    await writeStdout(`Added ${kind} MCP server "${args.name}" (${target}) to ${args.scope} scope (${scopeLabel(args.scope, paths)})\n`);
    return 0;
  } catch (err) {
    if (err instanceof ScopeEditError) {
      stderr(`mcp ${command}: ${err.message}`);
      return err.exitCode;
    }
    if (err instanceof ConfigWriteError) {
      stderr(`mcp ${command}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

/**
 * The secret for `--client-secret`: `MCP_CLIENT_SECRET`, else typed on the terminal without echo.
 * Never a command-line word, where `ps` and shell history would keep it.
 * @throws UsageError when neither is possible or the input is empty.
 */
async function clientSecret(command: string): Promise<string> {
  const fromEnv = readMcpEnv().clientSecret;
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new UsageError(`mcp ${command}: --client-secret needs MCP_CLIENT_SECRET, or a terminal to type it on`);
  const { readHidden } = await import("../../io/hidden-input.ts");
  const typed = await readHidden("Client secret: ").catch(() => "");
  if (!typed) throw new UsageError(`mcp ${command}: no client secret given`);
  return typed;
}
