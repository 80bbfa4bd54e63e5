/**
 * The first run from a fresh clone: `your_program.sh` installs its dependencies with the real npm
 * (the npm cache makes that a few seconds), says so in one stderr line before it starts, and
 * leaves stdout to the answer alone. The clone is the working tree's files as git sees them
 * (tracked and new, not ignored), so node_modules and dist are not in it.
 */
import { afterEach, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import { dirname, join } from "node:path";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { ROOT, baseEnv, tempDir } from "../../support/run.ts";

let model: ModelServer | undefined;
afterEach(() => model?.stop());

/** A copy of the project's files as a clone would have them: no node_modules, no dist. */
function freshClone(): string {
  const listed = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT });
  if (listed.exitCode !== 0) throw new Error(`git ls-files failed: ${listed.stderr.toString()}`);
  const dir = tempDir("agent-clone-");
  for (const file of listed.stdout.toString().split("\0")) {
    if (file === "" || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

test("the first run announces the install on stderr, once, before it starts; stdout holds only the answer", async () => {
  const clone = freshClone();
  expect(existsSync(join(clone, "node_modules"))).toBe(false);
  model = startModelServer([reply(text("the answer")), reply(text("again")), reply(text("the answer"))]);
  const env = Object.fromEntries(Object.entries(baseEnv(model.url)).filter((e): e is [string, string] => e[1] !== undefined));
  const proc = Bun.spawn([join(clone, "your_program.sh"), "-p", "hi"], { cwd: tempDir(), env, stdout: "pipe", stderr: "pipe" });
  // Only to end a hang: npm install takes seconds on a quiet machine, minutes on a loaded one.
  const timer = setTimeout(() => proc.kill("SIGKILL"), 400_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  expect({ code, stdout }).toEqual({ code: 0, stdout: "the answer\n" });
  expect(stderr.split("\n")[0]).toBe("first run: installing dependencies with npm install (about 15 s, once)...");
  expect(stderr.match(/first run/g)).toHaveLength(1);
  expect(existsSync(join(clone, "node_modules/.bin/bun"))).toBe(true);

  const again = Bun.spawn([join(clone, "your_program.sh"), "-p", "hi"], { cwd: tempDir(), env, stdout: "pipe", stderr: "pipe" });
  const [, stderr2] = await Promise.all([new Response(again.stdout).text(), new Response(again.stderr).text(), again.exited]);
  expect(stderr2).not.toContain("first run");
  expect(stderr2).not.toContain("dependencies changed");

  // A pull that changes package-lock.json: the next run brings node_modules up to date first.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(clone, "package-lock.json"), later, later);
  const pulled = Bun.spawn([join(clone, "your_program.sh"), "-p", "hi"], { cwd: tempDir(), env, stdout: "pipe", stderr: "pipe" });
  const [stdout3, stderr3, code3] = await Promise.all([new Response(pulled.stdout).text(), new Response(pulled.stderr).text(), pulled.exited]);
  expect({ code: code3, stdout: stdout3 }).toEqual({ code: 0, stdout: "the answer\n" });
  expect(stderr3.split("\n")[0]).toBe("dependencies changed: updating them with npm install...");

  // Hundreds of MB: removed here, inside this test's time, rather than by the run's final clean-up.
  rmSync(clone, { recursive: true, force: true });
}, 900_000);
