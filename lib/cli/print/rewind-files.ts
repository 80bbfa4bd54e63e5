/**
 * `agent -p --resume <session> --rewind-files <user message id>`: puts the files the agent changed
 * back as they were at that message, prints what it did, and exits, without the model or any
 * server (Claude Code's standalone operation). With a prompt it is refused; a change by the user
 * since stops it unless --rewind-overwrite. Exit codes: 0 done, 1 refused or failed, 2 usage.
 */
import type { CliArgs } from "../flags/args.ts";
import { openRunSession, SessionError } from "../flags/session-flags.ts";
import { openCheckpoints } from "../../agent/checkpoints/open.ts";
import { describeStep, rewindFiles } from "../../agent/checkpoints/rewind.ts";
import { writeStdout } from "../io/stdout.ts";
import { ourColoursOnly } from "../../shared/terminal-text.ts";
import { errorMessage } from "../../shared/values.ts";

const stderr = (line: string) => process.stderr.write(`${ourColoursOnly(line)}\n`);

export async function runRewindFiles(args: CliArgs): Promise<number> {
  const id = args.rewindFiles!;
  if (args.prompt !== undefined) {
    stderr("error: --rewind-files is an operation of its own and cannot be used with a prompt");
    return 2;
  }
  if (args.resume === undefined && !args.continue) {
    stderr("error: --rewind-files needs the session: --resume <session id>");
    return 2;
  }
  let checkpoints: Awaited<ReturnType<typeof openCheckpoints>>;
  try {
    const session = openRunSession(args, process.cwd(), stderr);
    checkpoints = await openCheckpoints(session.conversation, process.env, stderr);
  } catch (err) {
    if (!(err instanceof SessionError)) throw err;
    stderr(`error: ${err.message}`);
    return err.usage ? 2 : 1;
  }
  try {
    const { steps, notes } = rewindFiles(checkpoints, id, args.rewindOverwrite);
    for (const note of notes) stderr(`note: ${note}`);
    const head = steps.length ? `Files rewound to their state at message ${id}:` : `Files are already as they were at message ${id}; nothing to rewind.`;
    await writeStdout(ourColoursOnly([head, ...steps.map((s) => `  ${describeStep(s)}`)].join("\n")) + "\n");
    return 0;
  } catch (err) {
    stderr(`error: ${errorMessage(err)}`);
    return 1;
  }
}
