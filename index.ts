/**
 * Entry: read argv, pick a mode, nothing else. Modes are imported lazily so each run loads only
 * what it uses.
 */
import { parseCliArgs, UsageError, USAGE, VERSION } from "./lib/cli/args.ts";

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "mcp-init") return (await import("./lib/cli/grader.ts")).runMcpInit(argv.slice(1));
  // `agent --verbose mcp list` means the inspector too: only its own flags may come first.
  const mode = argv.findIndex((a) => !a.startsWith("-"));
  if (argv[mode] === "mcp" && argv.slice(0, mode).every((a) => a === "--verbose" || a === "--debug")) {
    return (await import("./lib/cli/inspector.ts")).runInspector([...argv.slice(mode + 1), ...argv.slice(0, mode)]);
  }
  let args;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return 2;
  }
  if (args.version) {
    await Bun.write(Bun.stdout, `${VERSION} (agent)\n`);
    return 0;
  }
  if (args.help) {
    await Bun.write(Bun.stdout, USAGE + "\n");
    return 0;
  }
  const { installExitHandlers } = await import("./lib/agent/lifecycle.ts");
  const interactive = !args.print && Boolean(process.stdin.isTTY);
  installExitHandlers({ interactive });
  if (interactive) return (await import("./lib/cli/repl.ts")).runRepl(args);
  return (await import("./lib/cli/print.ts")).runPrint(args);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (err) => {
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    const { shutdown } = await import("./lib/agent/lifecycle.ts");
    await shutdown();
    process.exit(1);
  },
);
