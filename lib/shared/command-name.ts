/**
 * How hints name this program (`… mcp login x`): `./your_program.sh` from a checkout (the script
 * sets AGENT_COMMAND, also when it runs the compiled executable), an installed executable by its
 * own file name, so a user of the release binary is not told to run a script they do not have.
 */
import { basename } from "node:path";

export function commandName(env: Record<string, string | undefined> = process.env, execPath: string = process.execPath): string {
  if (env.AGENT_COMMAND) return env.AGENT_COMMAND;
  const exe = basename(execPath);
  // Run by Bun from source (tests, `bun index.ts`): the checkout's script is the way in.
  return /^bun(\.exe)?$/.test(exe) ? "./your_program.sh" : exe;
}
