/**
 * Entry: read argv, pick a mode, nothing else. Modes are imported lazily so each run loads only
 * what it uses. Exit codes are the modes' own; an error nobody handled is one stderr line
 * (the stack with --debug) and exit 1, after the servers are shut down.
 */
import type { CliArgs } from "./lib/cli/flags/args.ts";
import { versionLine } from "./lib/cli/flags/version.ts";
import { writeStdout } from "./lib/cli/io/stdout.ts";
import { fatalLine, installExitHandlers, installSilenceBackstop, shutdown } from "./lib/agent/lifecycle.ts";
import { beginWork } from "./lib/shared/pending-work.ts";

async function main(argv: string[]): Promise<number> {
  // `agent --version` alone loads nothing more: with the split build, only this chunk (bench: release figure).
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    await writeStdout(`${versionLine()}\n`);
    return 0;
  }
  // Inside the OS sandbox only: carries the sandboxed command's connections to the host's filtering proxy.
  if (argv[0] === "__sandbox-bridge") return (await import("./lib/sandbox/bridge.ts")).runBridge(argv.slice(1));
  if (argv[0] === "mcp-init") return (await import("./lib/cli/commands/mcp-init.ts")).runMcpInit(argv.slice(1));
  const { inspectorArgv, parseCliArgs, UsageError } = await import("./lib/cli/flags/args.ts");
  // `agent --strict-mcp-config mcp list` is the inspector too; it parses (or refuses) the flags itself.
  const inspector = inspectorArgv(argv);
  if (inspector) return (await import("./lib/cli/commands/mcp/inspect.ts")).runInspector(inspector);
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
    // Compiled before anything starts: a bad schema is a usage error, never a run that ignores it.
    if (args.jsonSchema !== undefined) {
      args.outputSchema = await (await import("./lib/cli/flags/json-schema-flag.ts")).readJsonSchemaFlag(args.jsonSchema, process.cwd());
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return 2;
  }
  if (args.version) {
    await writeStdout(`${versionLine()}\n`);
    return 0;
  }
  if (args.help) {
    await writeStdout(`${(await import("./lib/cli/flags/help.ts")).USAGE}\n`);
    return 0;
  }
  installExitHandlers();
  if (args.inputFormat === "stream-json") return (await import("./lib/cli/host/host.ts")).runHost(args);
  if (!args.print && process.stdin.isTTY) return (await import("./lib/cli/repl/session.ts")).runRepl(args);
  return (await import("./lib/cli/print/print.ts")).runPrint(args);
}

installSilenceBackstop();
const argv = process.argv.slice(2);
// Finished only when main settles: an event loop that empties before that is a bug the backstop names.
const running = beginWork(`the run (${argv[0] === "mcp" ? `mcp ${argv[1] ?? ""}`.trim() : argv.includes("-p") || argv.includes("--print") ? "-p" : "agent"})`);
main(argv).then(
  (code) => {
    running();
    process.exit(code);
  },
  async (err) => {
    running();
    process.stderr.write(fatalLine(err) + "\n");
    await shutdown();
    process.exit(1);
  },
);
