#!/usr/bin/env bun
/**
 * A rival writer for lock tests, behaving as Claude Code does with `~/.claude.json`: `bun
 * lock-writer.ts <file> <rounds> <holdMs>` takes the file's lock (Claude Code's mkdir lock, through
 * our module), reads the JSON, holds it for holdMs (so a writer ignoring the lock would be
 * overwritten), sets `"rival": <round>` and renames a new file over it; `rounds` times. Prints
 * `rival done <rounds>` at the end.
 */
import { renameSync, writeFileSync } from "node:fs";
import { readText, withFileLockSync } from "../../lib/files/locked-write.ts";

const [file, rounds, holdMs] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4] ?? "10")];
for (let round = 1; round <= rounds; round++) {
  withFileLockSync(file, () => {
    const text = readText(file);
    const doc = text ? JSON.parse(text) : {};
    Bun.sleepSync(holdMs);
    doc.rival = round;
    const temp = `${file}.rival.tmp`;
    writeFileSync(temp, `${JSON.stringify(doc, null, 2)}\n`);
    renameSync(temp, file);
  });
  Bun.sleepSync(1);
}
console.log(`rival done ${rounds}`);
