import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileSnapshots } from "../../../lib/tools/file-snapshots.ts";
import { ToolState } from "../../../lib/tools/tool-state.ts";
import { tempDir } from "../../support/run.ts";

describe("FileSnapshots", () => {
  test("only files read are guarded; a refresh takes only the paths it is given", () => {
    const dir = tempDir();
    const [a, b] = [join(dir, "a"), join(dir, "b")];
    writeFileSync(a, "1");
    writeFileSync(b, "1");
    const files = new FileSnapshots();
    files.read(a);
    appendFileSync(b, "2");
    expect(() => files.assertUnchanged(b)).not.toThrow();
    expect(files.unchanged()).toEqual([a]);
    appendFileSync(a, "2");
    expect(files.unchanged()).toEqual([]);
    files.refresh([]);
    expect(() => files.assertUnchanged(a)).toThrow("size 1 → 2 bytes");
    files.wrote(b);
    expect(() => files.assertUnchanged(b)).not.toThrow();
    files.forget(a);
    expect(() => files.assertUnchanged(a)).not.toThrow();
  });
});

describe("ToolState", () => {
  test("the shell directory falls back once to the project directory when it is gone", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    const session = new ToolState(dir);
    session.shellCwd = join(dir, "sub");
    expect(session.shellDirectory()).toEqual({ cwd: join(dir, "sub") });
    rmSync(join(dir, "sub"), { recursive: true });
    expect(session.shellDirectory().note).toContain("no longer exists");
    expect(session.shellDirectory()).toEqual({ cwd: dir });
  });
});
