/**
 * Paths are resolved before Read and Edit rules match, in -p through the real program and the
 * scripted model: a new file written through a linked folder, or through a dangling link, into an
 * Edit-denied folder is refused and never lands; the same through Bash's redirect.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { place, projectSettings, resultsOf, runPrint } from "./settings-support.ts";

const DENIED = "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>";

test("Edit(./protected/**) holds for new files reached through a linked folder or a dangling link", async () => {
  const p = place();
  mkdirSync(join(p.dir, "protected"));
  symlinkSync(join(p.dir, "protected"), join(p.dir, "innocent"));
  symlinkSync("protected/planted.txt", join(p.dir, "dangling.txt"));
  symlinkSync("protected/via-bash.txt", join(p.dir, "dangling-bash.txt"));
  projectSettings(p, { permissions: { deny: ["Edit(./protected/**)"] } });
  const run = await runPrint(p, [
    reply(toolUse("Write", { file_path: join(p.dir, "innocent", "new.txt"), content: "x" })),
    reply(toolUse("Write", { file_path: join(p.dir, "dangling.txt"), content: "x" })),
    reply(toolUse("Bash", { command: "echo x > innocent/bash.txt" })),
    reply(toolUse("Bash", { command: "echo x > dangling-bash.txt" })),
  ]);
  expect(run.code).toBe(0);
  for (const f of ["new.txt", "planted.txt", "bash.txt", "via-bash.txt"]) expect(existsSync(join(p.dir, "protected", f))).toBe(false);
  expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: DENIED });
  expect(resultsOf(run, 1)[0]).toMatchObject({ is_error: true, content: DENIED });
  expect(resultsOf(run, 2)[0]!.is_error).toBe(true);
  expect(resultsOf(run, 3)[0]!.is_error).toBe(true);
});
