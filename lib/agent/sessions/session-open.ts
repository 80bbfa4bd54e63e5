/**
 * Opens the conversation a run works on, as the flags ask (Claude Code's): a new session, the
 * newest of this directory (`--continue`), a given one (`--resume <id>`), either one copied into
 * a new session (`--fork-session`), a chosen id (`--session-id`), or nothing saved
 * (`--no-session-persistence`).
 */
import { existsSync } from "node:fs";
import { Conversation, type ConversationSink } from "../conversation.ts";
import { TRANSCRIPT_VERSION, TranscriptWriter, readTranscript, type TranscriptHeader } from "./transcript.ts";
import { cleanupPeriodDays, findSession, isUuid, newestSession, removeOldSessions, SessionError, sessionPath } from "./sessions.ts";

export interface SessionChoice {
  /** `-c`/`--continue`: the newest session of this directory. */
  continue?: boolean;
  /** `--resume <id>`. */
  resume?: string;
  /** `--session-id <uuid>`: the id of the new session (or of the fork). */
  sessionId?: string;
  /** `--fork-session`: a resumed conversation goes on in a new session. */
  fork?: boolean;
  /** False with `--no-session-persistence`. */
  persist: boolean;
}

export interface OpenedSession {
  conversation: Conversation;
  /** The model the resumed session last used. */
  savedModel?: string;
  /** The transcript file, when saving. */
  path?: string;
  /** Starts saving with this header model (the run's model is known only once flags and the saved session are read). */
  start(model: string): void;
  /** A new, empty session for `/clear` (Claude Code starts a new session there too), or a fork of session `forkedFrom` (a rewind). */
  fresh(forkedFrom?: string): { sessionId: string; sink?: ConversationSink };
}

/**
 * Opens the session and, when saving, removes sessions older than the cleanup period first.
 * Nothing is written until `start` and the first message.
 * @throws SessionError for an unknown or malformed id, `--continue` with no session here, or a `--session-id` in use
 */
export function openSession(choice: SessionChoice, env: { configDir: string; cwd: string; warn(line: string): void }): OpenedSession {
  const { configDir, cwd, warn } = env;
  if (choice.sessionId !== undefined && !isUuid(choice.sessionId)) throw new SessionError(`--session-id must be a UUID (got "${choice.sessionId}")`, true);
  if (choice.fork && !choice.continue && choice.resume === undefined) throw new SessionError("--fork-session needs --continue or --resume <id>", true);
  if (choice.persist) removeOldSessions(configDir, cleanupPeriodDays(configDir, warn));

  let resumedPath: string | undefined;
  if (choice.resume !== undefined) resumedPath = findSession(configDir, cwd, choice.resume);
  else if (choice.continue) {
    const id = newestSession(configDir, cwd);
    if (!id) throw new SessionError("no conversation to continue in this directory (--continue)");
    resumedPath = findSession(configDir, cwd, id);
  }
  const resumed = resumedPath ? readTranscript(resumedPath, warn) : undefined;
  const appending = resumed && !choice.fork;
  const id = appending ? resumed.header.session_id : (choice.sessionId ?? crypto.randomUUID());
  // A resumed session that is not forked keeps its id: --session-id cannot rename it.
  if (appending && choice.sessionId !== undefined && choice.sessionId !== id) {
    throw new SessionError("--session-id with --resume or --continue needs --fork-session (the resumed session keeps its id)", true);
  }
  let path: string | undefined;
  try {
    path = choice.persist ? (appending ? resumedPath! : sessionPath(configDir, cwd, id)) : undefined;
  } catch (err) {
    warn(`cannot save this session: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (path && !appending && existsSync(path)) throw new SessionError(`session id ${id} is already in use`);

  let model0 = resumed?.header.model ?? "";
  const conversation = resumed ? Conversation.replay(id, resumed.records) : new Conversation(id);
  return {
    conversation,
    savedModel: resumed?.header.model,
    path,
    start(model) {
      if (!path) return;
      const header: TranscriptHeader = {
        type: "session",
        version: TRANSCRIPT_VERSION,
        session_id: id,
        cwd,
        model,
        created_at: new Date().toISOString(),
        ...(resumed && choice.fork ? { forked_from: resumed.header.session_id } : {}),
      };
      conversation.redirect(id, new TranscriptWriter(path, header, warn), !appending);
      model0 = model;
    },
    fresh(forkedFrom) {
      const next = crypto.randomUUID();
      if (!choice.persist) return { sessionId: next };
      const header: TranscriptHeader = {
        type: "session",
        version: TRANSCRIPT_VERSION,
        session_id: next,
        cwd,
        model: model0,
        created_at: new Date().toISOString(),
        ...(forkedFrom ? { forked_from: forkedFrom } : {}),
      };
      try {
        return { sessionId: next, sink: new TranscriptWriter(sessionPath(configDir, cwd, next), header, warn) };
      } catch (err) {
        warn(`cannot save this session: ${err instanceof Error ? err.message : String(err)}`);
        return { sessionId: next };
      }
    },
  };
}
