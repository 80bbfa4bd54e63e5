/**
 * readRegularFile on real files, folders, FIFOs and sockets.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile } from "../../../lib/files/regular-file.ts";
import { tempDir } from "../../support/run.ts";

let listener: { stop(): void } | undefined;
afterEach(() => listener?.stop());

describe("readRegularFile", () => {
  test("reads up to the cap and says whether the file goes on", () => {
    const path = join(tempDir(), "ten.txt");
    writeFileSync(path, "0123456789");
    expect(readRegularFile(path, 4)).toEqual({ kind: "file", bytes: Buffer.from("0123"), size: 10, truncated: true });
    expect(readRegularFile(path, 10)).toEqual({ kind: "file", bytes: Buffer.from("0123456789"), size: 10, truncated: false });
    expect(readRegularFile(path, 100, { refuseOver: 9 })).toEqual({ kind: "too-large", size: 10 });
  });

  test("a FIFO is reported, never opened (opening one would block until a writer came)", () => {
    const path = join(tempDir(), "fifo");
    expect(Bun.spawnSync(["mkfifo", path]).exitCode).toBe(0);
    expect(readRegularFile(path, 10)).toEqual({ kind: "special" });
  });

  test("a listening Unix socket is reported, not an ENXIO", () => {
    const path = join(tempDir(), "sock");
    listener = Bun.listen({ unix: path, socket: { data() {} } });
    expect(readRegularFile(path, 10)).toEqual({ kind: "special" });
  });

  test("a directory is reported; a missing path throws ENOENT", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    expect(readRegularFile(join(dir, "sub"), 10)).toEqual({ kind: "directory" });
    expect(() => readRegularFile(join(dir, "nope"), 10)).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });

  test.skipIf(process.platform !== "linux")("reads to end of file, not to the stat size (/proc files say 0)", () => {
    const status = readRegularFile("/proc/self/status", 1 << 20);
    expect(status.kind === "file" && status.size).toBe(0);
    expect(status.kind === "file" && status.bytes.toString()).toContain(`Pid:\t${process.pid}`);
  });
});
