/** The one mkdir(2) lock (mkdir-lock.ts) with its stale policy as a parameter, on real folders. */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type MkdirLockPolicy, tryMkdirLock } from "../../../lib/files/mkdir-lock.ts";
import { tempDir } from "../../support/run.ts";

const policy = (over: Partial<MkdirLockPolicy> = {}): MkdirLockPolicy => ({ stale: () => false, remove: (l) => rmdirSync(l), rounds: 2, ...over });

test("the first taker holds it; a second finds a live holder", () => {
  const lock = join(tempDir(), "a.lock");
  expect(tryMkdirLock(lock, policy())).toBe(true);
  expect(existsSync(lock)).toBe(true);
  expect(tryMkdirLock(lock, policy())).toBe(false);
});

test("a stale lock is removed and taken over, and the claim fills it", () => {
  const lock = join(tempDir(), "b.lock");
  tryMkdirLock(lock, policy());
  const claim = (l: string) => writeFileSync(join(l, "pid"), "42");
  expect(tryMkdirLock(lock, policy({ stale: () => true, claim }))).toBe(true);
  expect(readFileSync(join(lock, "pid"), "utf8")).toBe("42");
});

test("a lock that stays after every round is not taken", () => {
  const lock = join(tempDir(), "c.lock");
  tryMkdirLock(lock, policy());
  let removals = 0;
  expect(tryMkdirLock(lock, policy({ stale: () => true, remove: () => void removals++, rounds: 3 }))).toBe(false);
  expect(removals).toBe(3);
});

test("a missing parent is made only when asked; other errors are thrown", () => {
  const dir = tempDir();
  expect(() => tryMkdirLock(join(dir, "no", "such", "d.lock"), policy())).toThrow();
  expect(tryMkdirLock(join(dir, "made", "d.lock"), policy({ makeParent: true }))).toBe(true);
  writeFileSync(join(dir, "file"), "");
  expect(() => tryMkdirLock(join(dir, "file", "e.lock"), policy({ makeParent: true }))).toThrow();
});
