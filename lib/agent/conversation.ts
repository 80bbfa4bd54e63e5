/**
 * The one owner of a conversation's messages: each with an id and a timestamp, the usage of the
 * model call that produced it, rollback of a refused or interrupted turn that keeps every
 * `tool_use` paired with its `tool_result` (Messages API, tool use), `/clear`, and a sink that
 * persists every change as it happens (transcript.ts). The loop appends; the CLI rolls back.
 */
import { isToolUse, type MessageParam, type ToolResultContentBlock, type Usage } from "./messages.ts";
import type { ToolRoute } from "./mcp/tools.ts";
import type { FileHistoryRow } from "./checkpoints/row.ts";

/** One message of the conversation, as kept and saved. `timestamp` is ISO 8601. */
export interface Entry {
  id: string;
  timestamp: string;
  message: MessageParam;
  /** The usage of the model call that produced an assistant message. */
  usage?: Usage;
  /** The model that produced an assistant message. */
  model?: string;
}

/** Where a tool's API name led when the model saw it: `mcp__a__b` → server a, tool b. */
export type Routes = Record<string, ToolRoute>;

/** A line of the transcript: what changed, in order. Replaying them rebuilds the conversation. */
export type TranscriptRecord =
  | { type: "message"; entry: Entry }
  | { type: "rollback"; to: string | null; timestamp: string }
  | { type: "routes"; routes: Routes; timestamp: string }
  /** A checkpoint's row (checkpoints/row.ts): saved as it is, not part of the messages. */
  | FileHistoryRow;

/** Receives every change as it happens (the transcript file, or nothing with --no-session-persistence). */
export interface ConversationSink {
  write(record: TranscriptRecord): void;
}

/** A point to roll back to: the number of messages then. */
export type Mark = number;

export class Conversation {
  private readonly entries: Entry[] = [];
  private readonly routeTable: Routes = {};
  /** Checkpoint rows of a resumed session, oldest first (checkpoints/ rebuilds its index from them). */
  readonly fileHistory: FileHistoryRow[] = [];

  /**
   * @param sessionId the session's UUID (`session_id` in json/stream-json output, the transcript's file name)
   * @param sink receives every appended message, rollback and route change
   */
  constructor(
    public sessionId: string,
    private sink?: ConversationSink,
  ) {}

  /** The messages as the Messages API takes them (no ids or timestamps). */
  get messages(): MessageParam[] {
    return this.entries.map((e) => e.message);
  }

  /** The kept entries, oldest first. */
  get all(): readonly Entry[] {
    return this.entries;
  }

  /** The number of user prompts (user messages that are not only tool results). */
  get turns(): number {
    return this.entries.filter((e) => e.message.role === "user" && !isToolResults(e.message)).length;
  }

  /** The file the conversation is saved to, when its sink is a file (a transcript). */
  get transcriptPath(): string | undefined {
    const path = (this.sink as { path?: unknown } | undefined)?.path;
    return typeof path === "string" ? path : undefined;
  }

  /** Tool API names seen by the model so far and where they led. */
  get routes(): Readonly<Routes> {
    return this.routeTable;
  }

  /** Appends a message (and saves it). Returns its entry. */
  append(message: MessageParam, meta: { usage?: Usage; model?: string } = {}): Entry {
    const entry: Entry = { id: crypto.randomUUID(), timestamp: new Date().toISOString(), message, ...meta };
    this.entries.push(entry);
    this.sink?.write({ type: "message", entry });
    return entry;
  }

  /** Records the routes of the tools offered to the model; only new or changed names are saved. */
  noteRoutes(routes: Routes): void {
    const changed: Routes = {};
    for (const [name, route] of Object.entries(routes)) {
      const known = this.routeTable[name];
      if (known?.server === route.server && known.tool === route.tool) continue;
      this.routeTable[name] = route;
      changed[name] = route;
    }
    if (Object.keys(changed).length) this.sink?.write({ type: "routes", routes: changed, timestamp: new Date().toISOString() });
  }

  /** Saves a record that is not a message (a checkpoint's row): it changes nothing of the history. */
  note(record: FileHistoryRow): void {
    this.sink?.write(record);
  }

  /** The current point, for a later `rollback`. */
  mark(): Mark {
    return this.entries.length;
  }

  /**
   * Drops every message after `mark` (a turn the API refused: kept, it would be resent and refused
   * again). Cutting back to before a user prompt drops tool_use and tool_result blocks together.
   */
  rollback(mark: Mark): void {
    if (mark >= this.entries.length) return;
    this.entries.length = mark;
    this.sink?.write({ type: "rollback", to: this.entries.at(-1)?.id ?? null, timestamp: new Date().toISOString() });
  }

  /**
   * Closes a turn cut short (an interrupt): a trailing assistant message whose tool_use blocks
   * got no tool_result gets one `is_error` result each, so the history stays valid for the API;
   * a trailing user prompt that got no reply is kept (the API joins consecutive user messages).
   */
  closeInterrupted(note = "Interrupted by the user."): void {
    const last = this.entries.at(-1)?.message;
    if (last?.role !== "assistant") return;
    const calls = last.content.filter(isToolUse);
    if (!calls.length) return;
    const results: ToolResultContentBlock[] = calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: note, is_error: true }));
    this.append({ role: "user", content: results });
  }

  /**
   * Compaction (compact.ts): the history becomes `head` (the summary) followed by the entries from
   * `from` on, kept whole with their ids and usage. Saved as a rollback to the start and the new
   * messages, so replaying the transcript rebuilds the same history.
   */
  rewrite(head: MessageParam[], from: Mark): void {
    const kept = this.entries.slice(from);
    this.rollback(0);
    for (const message of head) this.append(message);
    for (const entry of kept) {
      this.entries.push(entry);
      this.sink?.write({ type: "message", entry });
    }
  }

  /** Empties the conversation (`/clear`); with `next`, later changes go to a new session. */
  clear(next?: { sessionId: string; sink?: ConversationSink }): void {
    if (next) {
      this.sessionId = next.sessionId;
      this.sink = next.sink;
    } else {
      this.rollback(0);
    }
    this.entries.length = 0;
    for (const k of Object.keys(this.routeTable)) delete this.routeTable[k];
  }

  /**
   * Rebuilds a conversation from saved records (a resumed session), without writing them again.
   * A trailing assistant message whose tool_use got no tool_result (a crash mid-call) is closed
   * like an interrupt, so the first request of the resumed session is valid.
   */
  static replay(sessionId: string, records: Iterable<TranscriptRecord>, sink?: ConversationSink): Conversation {
    const c = new Conversation(sessionId);
    for (const r of records) {
      if (r.type === "message") c.entries.push(r.entry);
      else if (r.type === "routes") Object.assign(c.routeTable, r.routes);
      else if (r.type === "file-history-snapshot") c.fileHistory.push(r);
      else if (r.type === "rollback") {
        const at = r.to === null ? 0 : c.entries.findIndex((e) => e.id === r.to) + 1;
        if (r.to === null || at > 0) c.entries.length = at;
      }
    }
    c.sink = sink;
    c.closeInterrupted("This tool call was interrupted when the previous session ended.");
    return c;
  }

  /** Every record that rebuilds this conversation as it is now (a forked session's first lines). */
  snapshot(): TranscriptRecord[] {
    const routes: TranscriptRecord[] = Object.keys(this.routeTable).length
      ? [{ type: "routes", routes: { ...this.routeTable }, timestamp: new Date().toISOString() }]
      : [];
    return [...routes, ...this.entries.map((entry): TranscriptRecord => ({ type: "message", entry }))];
  }

  /** Sends later changes to `sink`; with `copy`, the conversation so far first (a fork's new file). */
  redirect(sessionId: string, sink: ConversationSink | undefined, copy: boolean): void {
    this.sessionId = sessionId;
    this.sink = sink;
    if (copy) for (const r of this.snapshot()) sink?.write(r);
  }
}

function isToolResults(m: MessageParam): boolean {
  return m.content.length > 0 && m.content.every((b) => b.type === "tool_result");
}
