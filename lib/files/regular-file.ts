/**
 * Reading a file named by the model or the user without ever hanging the process: only regular
 * files are opened (opening a FIFO blocks until a writer comes, a socket cannot be opened, a
 * device may never end), and at most a given number of bytes is read. Shared by Read, Grep's
 * fallback and `@file` mentions so they agree on what can be read.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

export type FileRead =
  /** `bytes`: the first bytes, at most the cap; `truncated`: the file goes on past them; `size`: from stat (0 for many /proc files). */
  | { kind: "file"; bytes: Buffer; size: number; truncated: boolean }
  | { kind: "directory" }
  /** A FIFO, socket or device. */
  | { kind: "special" }
  /** Larger than `refuseOver`: nothing was read. */
  | { kind: "too-large"; size: number };

// Opening non-blocking means a path swapped for a FIFO after the stat still cannot block; reads of a regular file are unaffected.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads up to `maxBytes` bytes from the start of the regular file at `path` (absolute).
 * `refuseOver` (bytes): a file whose stat size exceeds it is not read at all ("too-large").
 * Reads until end of file rather than trusting the stat size, which /proc files report as 0.
 * @throws the fs error (with its `code`: ENOENT, EACCES, EIO…) when the path cannot be stat'ed,
 * opened or read.
 */
export function readRegularFile(path: string, maxBytes: number, opts: { refuseOver?: number } = {}): FileRead {
  const stats = statSync(path);
  if (stats.isDirectory()) return { kind: "directory" };
  if (!stats.isFile()) return { kind: "special" };
  if (opts.refuseOver !== undefined && stats.size > opts.refuseOver) return { kind: "too-large", size: stats.size };
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { kind: "special" };
    const size = opened.size;
    const chunks: Buffer[] = [];
    let got = 0;
    // One byte past the cap tells whether the file goes on.
    while (got <= maxBytes) {
      const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1 - got, Math.max(size - got + 1, CHUNK_BYTES)));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      got += n;
    }
    const all = Buffer.concat(chunks, got);
    return { kind: "file", bytes: all.subarray(0, maxBytes), size, truncated: got > maxBytes };
  } finally {
    closeSync(fd);
  }
}
