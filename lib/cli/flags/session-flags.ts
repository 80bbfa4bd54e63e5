/**
 * The session flags (-c, --resume, --session-id, --fork-session, --no-session-persistence) as an
 * opened session, for -p, the interactive session and the host protocol alike.
 */
import type { CliArgs } from "./args.ts";
import { userConfigDir } from "../../shared/claude-home.ts";
import { openSession, type OpenedSession } from "../../agent/sessions/session-open.ts";
import { SessionError } from "../../agent/sessions/sessions.ts";

export { SessionError };

/**
 * Opens the session the flags ask for in `cwd`. A bare `--resume` (the picker) is the caller's
 * to resolve first: here it is an error.
 * @throws SessionError (one line for stderr)
 */
export function openRunSession(args: CliArgs, cwd: string, warn: (line: string) => void, resume = args.resume): OpenedSession {
  if (resume === "") throw new SessionError("--resume needs a session id here (the picker needs a terminal)", true);
  return openSession(
    { continue: args.continue, resume, sessionId: args.sessionId, fork: args.forkSession, persist: args.persistSession },
    { configDir: userConfigDir(), cwd, warn },
  );
}
