/**
 * The checkpoint tracker and rewind on real files, without the program: one backup per file per
 * turn (versions counting up, an unchanged file's backup reused), the index rebuilt from the
 * transcript's rows, compaction keeping that index, and a plan's line counts.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Conversation, type TranscriptRecord } from "../../../../lib/agent/conversation.ts";
import { FileCheckpoints } from "../../../../lib/agent/checkpoints/tracker.ts";
import { BackupStore, MAX_FULL_BYTES } from "../../../../lib/agent/checkpoints/store.ts";
import { previewRewind, rewindFiles } from "../../../../lib/agent/checkpoints/rewind.ts";
import { tempDir } from "../../../support/run.ts";

function setup() {
  const records: TranscriptRecord[] = [];
  const conversation = new Conversation("11111111-1111-4111-8111-111111111111", { write: (r) => records.push(r) });
  const root = tempDir("agent-history-");
  const warnings: string[] = [];
  const tracker = (rows = conversation.fileHistory) =>
    new FileCheckpoints({
      store: new BackupStore(root, conversation.sessionId),
      sessionId: () => conversation.sessionId,
      record: (row) => conversation.note(row),
      warn: (l) => warnings.push(l),
      rows,
    });
  return { records, conversation, root, tracker, dir: tempDir(), warnings };
}

/** One user turn that writes `text` to `path` through the hook, as the tools do. */
function turn(c: FileCheckpoints, conversation: Conversation, prompt: string, path: string, text: string) {
  const entry = conversation.append({ role: "user", content: [{ type: "text", text: prompt }] });
  c.beginTurn(entry.id);
  c.hook.before(path);
  writeFileSync(path, text);
  c.hook.after(path, Buffer.from(text));
  conversation.append({ role: "assistant", content: [{ type: "text", text: "ok" }] });
  return entry.id;
}

describe("checkpoints", () => {
  test("one backup per file per turn, versions counting up; rewinding to any turn restores that turn's start", () => {
    const { conversation, tracker, dir, root } = setup();
    const c = tracker();
    const a = join(dir, "a.txt");
    writeFileSync(a, "v0\n");
    const first = turn(c, conversation, "one", a, "v1\n");
    c.hook.before(a); // a second change in the same turn keeps nothing new
    const second = turn(c, conversation, "two", a, "v2\n");
    const files = readdirSync(join(root, conversation.sessionId)).sort();
    expect(files.map((f) => f.replace(/^[0-9a-f]{16}/, "H"))).toEqual(["H@v1", "H@v2"]);
    expect(previewRewind(c, second)).toMatchObject({ insertions: 1, deletions: 1, problems: [] });
    expect(rewindFiles(c, second).steps.map((s) => s.path)).toEqual([a]);
    expect(readFileSync(a, "utf8")).toBe("v1\n");
    rewindFiles(c, first);
    expect(readFileSync(a, "utf8")).toBe("v0\n");
    expect(() => previewRewind(c, "nope")).toThrow("no checkpoint for message nope in this session");
  });

  test("a session that kept no checkpoint at all says so, and how -p keeps them", () => {
    const { tracker } = setup();
    const c = tracker();
    expect(() => previewRewind(c, "m1")).toThrow(
      "no checkpoint for message m1: this session kept no file checkpoints (-p and host mode keep them only with CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=1)",
    );
  });

  test("a resumed session rebuilds the index from its rows, and compaction keeps them", () => {
    const { records, conversation, tracker, dir } = setup();
    const a = join(dir, "a.txt");
    writeFileSync(a, "before\n");
    const first = turn(tracker(), conversation, "one", a, "after\n");
    // Compaction: the history becomes a summary; the checkpoint rows stay in the transcript.
    conversation.rewrite([{ role: "user", content: [{ type: "text", text: "summary" }] }], conversation.mark());
    const resumed = Conversation.replay(conversation.sessionId, records);
    expect(resumed.messages).toHaveLength(1);
    expect(resumed.fileHistory.length).toBeGreaterThan(0);
    const c = tracker(resumed.fileHistory);
    expect(c.snapshots.has(first)).toBe(true);
    rewindFiles(c, first);
    expect(readFileSync(a, "utf8")).toBe("before\n");
  });

  test("binary content is kept byte for byte; a file over 50 MB is recorded by hash only and the rewind says it cannot restore it", () => {
    const { conversation, tracker, dir, root } = setup();
    const c = tracker();
    const bin = join(dir, "blob.bin");
    const bytes = Buffer.from([0, 255, 1, 254, 0, 10, 13, 0]);
    writeFileSync(bin, bytes);
    const first = turn(c, conversation, "one", bin, "text now");
    rewindFiles(c, first);
    expect(readFileSync(bin).equals(bytes)).toBe(true);

    const big = join(dir, "big.bin");
    writeFileSync(big, Buffer.alloc(MAX_FULL_BYTES + 1, 7));
    const second = turn(c, conversation, "two", big, "small");
    const kept = c.snapshots.get(second)!.trackedFileBackups[big]!;
    expect(kept).toMatchObject({ backupFileName: null, hashOnly: true, size: MAX_FULL_BYTES + 1 });
    expect(readdirSync(join(root, conversation.sessionId))).toHaveLength(1);
    expect(previewRewind(c, second).problems.join("\n")).toContain("larger than 50 MB");
    expect(() => rewindFiles(c, second)).toThrow("cannot be restored");
    expect(readFileSync(big, "utf8")).toBe("small");
  });

  test("a folder replaced by a link to elsewhere since the checkpoint: refused, nothing written through it", () => {
    const { conversation, tracker, dir } = setup();
    const c = tracker();
    mkdirSync(join(dir, "sub"));
    const a = join(dir, "sub", "a.txt");
    writeFileSync(a, "mine\n");
    const first = turn(c, conversation, "one", a, "agent's\n");
    const outside = tempDir();
    writeFileSync(join(outside, "a.txt"), "outside\n");
    rmSync(join(dir, "sub"), { recursive: true });
    symlinkSync(outside, join(dir, "sub"));
    expect(() => rewindFiles(c, first, true)).toThrow(`the folder of ${a} now leads to ${outside}`);
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("outside\n");
  });
});
