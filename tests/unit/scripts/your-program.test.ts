/**
 * your_program.sh's promise: it runs the compiled executable only when no source is newer, else
 * `bun run index.ts`; with the build's source list (dist/agent.sources) and without it (the `find`
 * walk). Checked on a small copy of the layout whose executable and Bun are stand-in scripts that
 * say which one ran, with every time set explicitly (no sleeps).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sourceEntries, writeSourceList } from "../../../scripts/build.ts";
import { ROOT, tempDir } from "../../support/run.ts";

const BUILT = 1_700_000_000; // seconds: when the stand-in executable was "built"
const BEFORE = BUILT - 100;

function executable(path: string, body: string): void {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A project copy: sources from before the build, the executable at BUILT, its list (when asked) just after. */
function project(withList: boolean): string {
  const dir = tempDir("program-");
  copyFileSync(join(ROOT, "your_program.sh"), join(dir, "your_program.sh"));
  chmodSync(join(dir, "your_program.sh"), 0o755);
  mkdirSync(join(dir, "lib", "cli"), { recursive: true });
  mkdirSync(join(dir, "dist"));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  mkdirSync(join(dir, "node_modules", "@anthropic-ai", "sdk"), { recursive: true });
  writeFileSync(join(dir, "node_modules", ".package-lock.json"), "{}");
  writeFileSync(join(dir, "package-lock.json"), "{}");
  utimesSync(join(dir, "package-lock.json"), BEFORE, BEFORE);
  writeFileSync(join(dir, "index.ts"), "");
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(join(dir, "lib", "cli", "run.ts"), "");
  for (const entry of sourceEntries(dir).reverse()) utimesSync(join(dir, entry), BEFORE, BEFORE);
  executable(join(dir, "dist", "agent"), 'echo "compiled $* from $PWD as $AGENT_COMMAND"');
  utimesSync(join(dir, "dist", "agent"), BUILT, BUILT);
  executable(join(dir, "node_modules", ".bin", "bun"), 'echo "source $* from $PWD"');
  if (withList) {
    writeSourceList(dir, join(dir, "dist", "agent"));
    utimesSync(join(dir, "dist", "agent.sources"), BUILT + 1, BUILT + 1);
  }
  utimesSync(join(dir, "dist"), BUILT, BUILT);
  return dir;
}

/** Runs the script from a fresh folder, as the course's grader does; its stdout. */
function run(dir: string): string {
  const cwd = tempDir("program-cwd-");
  const result = Bun.spawnSync([join(dir, "your_program.sh"), "--version"], { cwd, env: { PATH: process.env.PATH }, stderr: "pipe" });
  expect(result.stderr.toString()).toBe("");
  expect(result.exitCode).toBe(0);
  return result.stdout.toString().replace(cwd, "<cwd>").replace(dir, "<project>");
}

for (const withList of [true, false]) {
  describe(withList ? "with the build's source list" : "without a source list (find)", () => {
    test("nothing newer than the executable: it runs, in the caller's folder, named as the script", () => {
      expect(run(project(withList))).toBe("compiled --version from <cwd> as ./your_program.sh\n");
    });

    test("a source file changed after the build: the sources run instead", () => {
      const dir = project(withList);
      utimesSync(join(dir, "lib", "cli", "run.ts"), BUILT + 50, BUILT + 50);
      expect(run(dir)).toBe("source run <project>/index.ts --version from <cwd>\n");
    });

    test("package.json or index.ts changed after the build: the sources run", () => {
      for (const file of ["package.json", "index.ts"]) {
        const dir = project(withList);
        utimesSync(join(dir, file), BUILT + 50, BUILT + 50);
        expect(run(dir)).toStartWith("source run");
      }
    });

    test("a file added in a source folder after the build (its folder's time moves): the sources run", () => {
      const dir = project(withList);
      writeFileSync(join(dir, "lib", "cli", "new.ts"), "");
      expect(run(dir)).toStartWith("source run");
    });
  });
}

test("the list is trusted only when it is not older than the executable (a build that wrote none); else the tree is walked", () => {
  // A file only the walk sees: newer than the build, not on the list, its folder's time put back.
  const hidden = (dir: string) => {
    writeFileSync(join(dir, "lib", "cli", "late.ts"), "");
    utimesSync(join(dir, "lib", "cli", "late.ts"), BUILT + 50, BUILT + 50);
    utimesSync(join(dir, "lib", "cli"), BEFORE, BEFORE);
    return dir;
  };
  expect(run(hidden(project(true)))).toStartWith("compiled");
  const stale = hidden(project(true));
  utimesSync(join(stale, "dist", "agent.sources"), BEFORE, BEFORE);
  expect(run(stale)).toStartWith("source run");
});
