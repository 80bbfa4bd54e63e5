/**
 * The silence backstop (lib/agent/lifecycle.ts) on the pinned Bun, interpreted and compiled: a
 * process whose event loop empties while marked work is pending says what was pending, once, on
 * stderr, and exits 1; finished work, or an exit on purpose, says nothing.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SILENT_END } from "../../../lib/agent/lifecycle.ts";
import { BUN, ROOT, tempDir } from "../../support/run.ts";

/** A program that installs the backstop, marks work, and then does what `body` says. */
function program(body: string): string {
  const file = join(tempDir(), "program.ts");
  writeFileSync(
    file,
    [
      `import { exitAfterShutdown, installSilenceBackstop } from ${JSON.stringify(join(ROOT, "lib/agent/lifecycle.ts"))};`,
      `import { beginWork } from ${JSON.stringify(join(ROOT, "lib/shared/pending-work.ts"))};`,
      "installSilenceBackstop();",
      'const done = beginWork("the demo");',
      'const doneBad = beginWork("MCP server \\"bad\\" start-up");',
      body,
    ].join("\n"),
  );
  return file;
}

async function run(command: string[]) {
  const proc = Bun.spawn(command, { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

// The shape of the bug it guards against: a promise nobody will ever settle, awaited by main.
const NEVER = "new Promise(() => {}).then(() => process.exit(0));";

describe("silence backstop", () => {
  test("an event loop that empties with work pending: one line naming it, exit 1", async () => {
    const r = await run([BUN, program(NEVER)]);
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: `${SILENT_END} (a bug; please report it): the demo, MCP server "bad" start-up never finished\n`,
    });
  });

  test("the same in a compiled executable (bun build --compile)", async () => {
    const out = join(tempDir(), "program");
    const build = await run([BUN, "build", "--compile", program(NEVER), "--outfile", out]);
    expect(build.code).toBe(0);
    const r = await run([out]);
    expect([r.code, r.stderr]).toEqual([1, `${SILENT_END} (a bug; please report it): the demo, MCP server "bad" start-up never finished\n`]);
  }, 60_000);

  test("work that finished, or an exit on purpose (a signal's path), says nothing", async () => {
    expect(await run([BUN, program("setTimeout(() => (done(), doneBad()), 1);")])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await run([BUN, program("void exitAfterShutdown(130);")])).toEqual({ code: 130, stdout: "", stderr: "" });
  });
});
