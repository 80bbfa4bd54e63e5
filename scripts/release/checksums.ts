/**
 * SHA256SUMS in GNU coreutils' `sha256sum` format: one "<64 hex>  <name>" line a file (two
 * spaces: text mode, which on POSIX is the same bytes), sorted by name, so `sha256sum -c` checks it.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SUMS_FILE = "SHA256SUMS";

/** The SHA-256 of a file, lowercase hex. */
export function sha256File(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Writes `dir`/SHA256SUMS covering every other regular file of `dir`; returns its text. */
export function writeSums(dir: string): string {
  const names = readdirSync(dir)
    .filter((n) => n !== SUMS_FILE && statSync(join(dir, n)).isFile())
    .sort();
  const text = names.map((n) => `${sha256File(join(dir, n))}  ${n}\n`).join("");
  writeFileSync(join(dir, SUMS_FILE), text);
  return text;
}

/** Parses SHA256SUMS text into name → hex. @throws Error on a line not in the format. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split("\n").filter((l) => l !== "")) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new Error(`${SUMS_FILE}: not a sha256sum line: ${line}`);
    sums.set(m[2]!, m[1]!);
  }
  return sums;
}
