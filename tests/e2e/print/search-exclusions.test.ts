/**
 * Grep and Glob leave what a Read rule denies out of the search itself, in -p through the real
 * program and the scripted model: a file whose name holds a newline and `:`, which once made a
 * filtered result line look like another file's, never reaches the model (through ripgrep when it
 * is on PATH, else the search's own walk; tests/unit/agent/permissions covers both).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { place, projectSettings, resultsOf, runPrint } from "./settings-support.ts";

describe("Grep and Glob", () => {
  test("a denied folder's files are not searched, whatever their names", async () => {
    const p = place();
    mkdirSync(join(p.dir, "secrets"));
    writeFileSync(join(p.dir, "secrets", "evil\nopen.txt:1:x"), "TOPSECRET one\n");
    writeFileSync(join(p.dir, "secrets", "key.txt"), "TOPSECRET two\n");
    writeFileSync(join(p.dir, "open.txt"), "nothing here\n");
    projectSettings(p, { permissions: { deny: ["Read(./secrets/**)"] } });
    const run = await runPrint(p, [
      reply(toolUse("Grep", { pattern: "TOPSECRET", output_mode: "content" })),
      reply(toolUse("Grep", { pattern: "TOP", glob: "**/*", output_mode: "files_with_matches" })),
      reply(toolUse("Glob", { pattern: "**/*" })),
    ]);
    expect(run.code).toBe(0);
    const all = JSON.stringify(run.requests.map((r) => r.body.messages));
    expect(all).not.toContain("TOPSECRET one");
    expect(all).not.toContain("TOPSECRET two");
    expect(all).not.toContain("key.txt");
    expect(all).not.toContain("evil");
    expect(String(resultsOf(run, 2)[0]!.content)).toContain("open.txt");
  });
});
