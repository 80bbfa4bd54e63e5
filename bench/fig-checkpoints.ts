/**
 * Figure: what checkpoints cost. (1) The backup before an Edit of a 100 KB file (a new turn each
 * time, so every Edit pays it), against the Edit itself, in the same run; (2) the git-tree
 * snapshot before a turn's first Bash call on a repository of 20,000 files, against `git status`
 * on the same tree in the same run (target ≤ 2×).
 */
import { rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../tests/support/run.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio, verdict, type Row } from "./measure.ts";

const EDITS = 200;
const FILES = 20_000;
const TREE_RUNS = 15;

export async function checkpointsFigure(ctx: BenchContext): Promise<FigureResult> {
  const rows: Row[] = [await editFigure(ctx)];
  try {
    rows.push(await treeFigure(ctx));
  } catch (err) {
    rows.push(naRow(`checkpoints: git-tree snapshot, ${FILES} files, vs git status`, "≤ 2×", (err as Error).message));
  }
  return { rows, notes: [] };
}

async function editFigure(ctx: BenchContext): Promise<Row> {
  const [{ editTool }, { FileCheckpoints }, { BackupStore }] = await Promise.all([
    import("../lib/tools/edit.ts"),
    import("../lib/agent/checkpoints/tracker.ts"),
    import("../lib/agent/checkpoints/store.ts"),
  ]);
  const dir = tempDir("bench-checkpoints-");
  try {
    const file = join(dir, "big.txt");
    const line = "the quick brown fox jumps over the lazy dog 0123456789\n";
    writeFileSync(file, `${line.repeat(Math.ceil(102_400 / line.length))}MARK0\n`);
    const store = new BackupStore(join(dir, "history"), "bench-session");
    const tracker = new FileCheckpoints({ store, sessionId: () => "bench-session", record: () => {}, warn: () => {} });
    const signal = new AbortController().signal;
    ctx.log(`checkpoints: ${EDITS} Edits of a 100 KB file, each in a new turn`);
    const edits: number[] = [];
    const backups: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      tracker.beginTurn(crypto.randomUUID());
      let t = performance.now();
      tracker.hook.before(file);
      backups.push(performance.now() - t);
      t = performance.now();
      await editTool.run({ file_path: file, old_string: `MARK${i}\n`, new_string: `MARK${i + 1}\n` }, { cwd: dir, signal });
      edits.push(performance.now() - t);
    }
    const backup = median(backups.slice(10));
    const edit = median(edits.slice(10));
    return {
      figure: `checkpoints: backup before an Edit of a 100 KB file (median of ${EDITS - 10}), vs the Edit itself`,
      value: ms(backup),
      baseline: `${ms(edit)} (the Edit)`,
      ratio: ratio(backup, edit),
      target: "reported",
      result: "paid once per file per turn",
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function treeFigure(ctx: BenchContext): Promise<Row> {
  const { snapshotTree } = await import("../lib/agent/checkpoints/git-tree.ts");
  const dir = tempDir("bench-tree-");
  const store = tempDir("bench-tree-store-");
  try {
    ctx.log(`checkpoints: a repository of ${FILES} files`);
    const git = (...args: string[]) => {
      const r = Bun.spawnSync(["git", ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
      if (r.exitCode !== 0) throw new Error(`git ${args[0]} failed: ${r.stderr.toString().trim()}`);
    };
    git("init", "-q");
    for (let d = 0; d < FILES / 100; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
    }
    git("add", "-A");
    git("-c", "user.email=b@example.com", "-c", "user.name=b", "commit", "-q", "-m", "files");
    // A few changes and new files, as a turn's start usually finds them.
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `d${i}`, "f0.txt"), `changed ${i}\n`);
    for (let i = 0; i < 20; i++) writeFileSync(join(dir, `new${i}.txt`), `new ${i}\n`);
    const status: number[] = [];
    const snapshot: number[] = [];
    for (let i = 0; i < TREE_RUNS; i++) {
      let t = performance.now();
      Bun.spawnSync(["git", "--no-optional-locks", "status", "--porcelain"], { cwd: dir, stdout: "pipe" });
      status.push(performance.now() - t);
      t = performance.now();
      const tree = snapshotTree(dir, store);
      snapshot.push(performance.now() - t);
      if (!tree.tree) throw new Error(`no tree: ${tree.skipped}`);
    }
    const s = median(status);
    const snap = median(snapshot);
    return {
      figure: `checkpoints: git-tree snapshot before a turn's first Bash call, ${FILES} files (median of ${TREE_RUNS}), vs git status`,
      value: ms(snap),
      baseline: `${ms(s)} (git status)`,
      ratio: ratio(snap, s),
      target: "≤ 2×",
      result: verdict(snap <= 2 * s),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  }
}
