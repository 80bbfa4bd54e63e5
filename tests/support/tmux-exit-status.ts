/**
 * Runs a command in the terminal it was started in and writes its exit status to a file:
 * `bun tmux-exit-status.ts STATUS_FILE command args…`. tmux can mark a pane dead before it has
 * the exit status, so tests read the status from the file instead.
 * SIGINT is the program's business (Ctrl-C reaches the whole foreground group): ignore it here.
 */
import { renameSync, writeFileSync } from "node:fs";

process.on("SIGINT", () => {});
const [statusFile, ...command] = process.argv.slice(2);
if (!statusFile || !command.length) {
  process.stderr.write("usage: bun tmux-exit-status.ts STATUS_FILE command [args…]\n");
  process.exit(2);
}
const child = Bun.spawn(command, { stdio: ["inherit", "inherit", "inherit"] });
const code = await child.exited;
const status = child.signalCode ? `signal ${child.signalCode}` : String(code);
// Written whole then renamed, so a reader never sees half a status.
writeFileSync(`${statusFile}.tmp`, status);
renameSync(`${statusFile}.tmp`, statusFile);
process.exit(code);
