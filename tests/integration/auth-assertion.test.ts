/**
 * The workload's JWT from a file or a command (lib/mcp/auth/assertion.ts), with real files and
 * real processes: the file is read afresh each time, the command runs in its own process group
 * that is ended afterwards (whatever it left running), a command that hangs is stopped at the
 * timeout, and no error line quotes what the command printed.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readAssertion } from "../../lib/mcp/auth/assertion.ts";
import { isAlive, tempDir } from "../support/run.ts";

const JWT_A = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln";
const JWT_B = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJiIn0.c2ln";

describe("workload assertion", () => {
  test("a file is read afresh for each token request", async () => {
    const file = join(tempDir(), "token.jwt");
    writeFileSync(file, `${JWT_A}\n`);
    expect(await readAssertion({ assertionFile: file })).toBe(JWT_A);
    writeFileSync(file, JWT_B);
    expect(await readAssertion({ assertionFile: file })).toBe(JWT_B);
    await expect(readAssertion({ assertionFile: join(tempDir(), "missing") })).rejects.toThrow(/cannot read "oauth.assertionFile" .*missing: ENOENT/);
  });

  test("a command's output, and what it left running in its group is ended", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "child.pid");
    const jwt = await readAssertion({ assertionCommand: `sleep 300 & echo $! > ${pidFile}; echo ${JWT_A}` });
    expect(jwt).toBe(JWT_A);
    expect(isAlive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  test("a command that hangs is stopped at the timeout, with its whole group", async () => {
    const pidFile = join(tempDir(), "hung.pid");
    const err = await readAssertion({ assertionCommand: `echo $$ > ${pidFile}; sleep 300` }, 300).catch((e: Error) => e);
    expect(String(err)).toContain('"oauth.assertionCommand" did not finish within 0.3 s');
    expect(isAlive(Number(readFileSync(pidFile, "utf8")))).toBe(false);
  });

  test("failures name the command's exit or the shape, never what it printed", async () => {
    const failed = await readAssertion({ assertionCommand: "echo SECRET-OUTPUT; exit 3" }).catch((e: Error) => e.message);
    expect(failed).toBe('"oauth.assertionCommand" exited with code 3');
    const notJwt = await readAssertion({ assertionCommand: "echo SECRET-OUTPUT" }).catch((e: Error) => e.message);
    expect(notJwt).toBe('"oauth.assertionCommand" did not give a JWT');
  });
});
