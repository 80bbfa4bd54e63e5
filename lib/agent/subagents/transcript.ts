/**
 * A subagent's transcript, as Claude Code stores it (CC-AGENT-NOTES §1.7): beside the session's
 * file, `<session>/subagents/agent-<id>.jsonl` with one row per message (`isSidechain: true`,
 * `agentId`, `parentUuid` chaining the rows), and `agent-<id>.meta.json` describing the agent.
 * The parent's transcript keeps only the Agent call and its result. Files are mode 0600, as the
 * session's are; a write that fails is one line and the subagent goes on unsaved.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ConversationSink, TranscriptRecord } from "../conversation.ts";

export interface SidechainMeta {
  agentType: string;
  isBuiltIn: boolean;
  description: string;
  toolUseId: string;
  spawnDepth: number;
  model: string;
}

export class SidechainWriter implements ConversationSink {
  readonly path: string;
  private readonly metaPath: string;
  private last: string | null = null;
  private failed = false;

  /** `sessionPath`: the session's `.jsonl`; the subagent's files go in the folder named after it. */
  constructor(
    sessionPath: string,
    private readonly agentId: string,
    private readonly sessionId: string,
    private readonly cwd: string,
    private readonly meta: SidechainMeta,
    private readonly warn: (line: string) => void,
  ) {
    const dir = join(dirname(sessionPath), sessionPath.replace(/^.*\//, "").replace(/\.jsonl$/, ""), "subagents");
    this.path = join(dir, `agent-${agentId}.jsonl`);
    this.metaPath = join(dir, `agent-${agentId}.meta.json`);
    this.guard(() => {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.writeMeta(false);
    });
  }

  write(record: TranscriptRecord): void {
    if (record.type !== "message") return;
    const { entry } = record;
    const row = {
      parentUuid: this.last,
      isSidechain: true,
      agentId: this.agentId,
      type: entry.message.role,
      message: entry.model ? { ...entry.message, model: entry.model, ...(entry.usage ? { usage: entry.usage } : {}) } : entry.message,
      uuid: entry.id,
      timestamp: entry.timestamp,
      sessionId: this.sessionId,
      cwd: this.cwd,
    };
    this.last = entry.id;
    this.guard(() => appendFileSync(this.path, `${JSON.stringify(row)}\n`, { mode: 0o600 }));
  }

  /** Marks the agent finished in its meta file. */
  finish(): void {
    this.guard(() => this.writeMeta(true));
  }

  private writeMeta(finished: boolean): void {
    const meta = { ...this.meta, requestShape: "foreground", requestNonInteractive: true, finished };
    writeFileSync(this.metaPath, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
  }

  private guard(fn: () => void): void {
    if (this.failed) return;
    try {
      fn();
    } catch (err) {
      this.failed = true;
      this.warn(`subagent ${this.agentId}: its transcript cannot be saved: ${(err as Error).message}`);
    }
  }
}
