/**
 * Bash deny rules hold against rewrites of how a command starts, in -p through the real program
 * (the shell grammar loaded from inside it) and the scripted model: each rewrite below would delete
 * victim.txt if it ran; with `Bash(rm:*)` denied, from a settings file or from --disallowedTools,
 * every one is refused and the file survives, while a command that parses and names no denied
 * program (`printf ok 2>&1 | tee log`) runs as before.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { place, projectSettings, resultsOf, runPrint } from "./settings-support.ts";

const REWRITES = [
  "> out.txt rm -f victim.txt",
  "timeout --signal KILL 5 rm -f victim.txt",
  "nice --adjustment 1 rm -f victim.txt",
  "env -S 'rm -f victim.txt'",
  "X=rm; $X -f victim.txt",
  'r""m -f victim.txt',
  "r{m,} -f victim.txt",
  "/bin/r? -f victim.txt",
  "$'rm' -f victim.txt",
  "rm$IFS-f${IFS}victim.txt",
  "$(echo rm) -f victim.txt",
  "trap 'rm -f victim.txt' EXIT",
  "coproc rm -f victim.txt",
  "bash -c 'rm -f victim.txt'",
];

describe.each([
  ["a project deny rule", (p: ReturnType<typeof place>) => projectSettings(p, { permissions: { deny: ["Bash(rm:*)"] } }), [] as string[]],
  ["--disallowedTools", () => {}, ["--disallowedTools", "Bash(rm:*)"]],
])("Bash(rm:*) from %s", (_, setup, args) => {
  test("refuses every rewrite; the file survives; an unrelated pipeline with redirections runs", async () => {
    const p = place();
    setup(p);
    writeFileSync(join(p.dir, "victim.txt"), "x");
    const run = await runPrint(
      p,
      [...REWRITES, "printf ok 2>&1 | tee log.txt"].map((command) => reply(toolUse("Bash", { command }))),
      args,
    );
    expect(run.code).toBe(0);
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(REWRITES.map((_, i) => resultsOf(run, i)[0]!.is_error)).toEqual(REWRITES.map(() => true));
    expect(resultsOf(run, REWRITES.length)[0]).toMatchObject({ content: "ok" });
    expect(readFileSync(join(p.dir, "log.txt"), "utf8")).toBe("ok");
  });
});
