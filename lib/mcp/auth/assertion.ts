/**
 * The workload's JWT for the jwt-bearer grant (SEP-1933, RFC 7523 §2.1): read afresh for every
 * token request from `oauth.assertionFile` (a projected service-account token rotates in place),
 * or printed by `oauth.assertionCommand`, run by `sh -c` in its own process group with a timeout,
 * the whole group ended afterwards. The JWT never travels in argv (ours or the command's) and is
 * never logged: errors name the file or the command's exit, not what it printed.
 */
import { readFileSync } from "node:fs";
import { killProcessGroup, signalGroup, trackGroup } from "../../process/group.ts";

/** How long `assertionCommand` may run, in ms. */
export const ASSERTION_COMMAND_TIMEOUT_MS = 10_000;
/** Characters of an assertion we accept: a JWT, not a runaway command's output. */
const MAX_ASSERTION_CHARS = 64 * 1024;

export interface AssertionSource {
  assertionFile?: string;
  assertionCommand?: string;
}

/**
 * The current assertion, trimmed.
 * @throws Error naming the file or the command (its exit code, or the timeout), never the content.
 */
export async function readAssertion(source: AssertionSource, timeoutMs = ASSERTION_COMMAND_TIMEOUT_MS): Promise<string> {
  const text = source.assertionFile ? readAssertionFile(source.assertionFile) : await runAssertionCommand(source.assertionCommand!, timeoutMs);
  const jwt = text.trim();
  const where = source.assertionFile ? `"oauth.assertionFile" ${source.assertionFile}` : '"oauth.assertionCommand"';
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(jwt) || jwt.length > MAX_ASSERTION_CHARS) throw new Error(`${where} did not give a JWT`);
  return jwt;
}

function readAssertionFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read "oauth.assertionFile" ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

async function runAssertionCommand(command: string, timeoutMs: number): Promise<string> {
  let proc: Bun.Subprocess<"ignore", "pipe", "ignore">;
  try {
    proc = Bun.spawn(["sh", "-c", command], { stdin: "ignore", stdout: "pipe", stderr: "ignore", detached: true });
  } catch (err) {
    throw new Error(`cannot run "oauth.assertionCommand": ${(err as Error).message}`);
  }
  const release = trackGroup(proc.pid);
  let timer: Timer | undefined;
  try {
    const output = new Response(proc.stdout).text();
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    const ended = await Promise.race([proc.exited, timedOut]);
    // Whatever the command left behind in its group goes with it, and with it its hold on the pipe.
    if (signalGroup(proc.pid, 0)) await killProcessGroup(proc.pid, 500);
    if (ended === "timeout") throw new Error(`"oauth.assertionCommand" did not finish within ${timeoutMs / 1000} s`);
    if (ended !== 0) throw new Error(`"oauth.assertionCommand" exited with code ${ended}`);
    return await output;
  } finally {
    clearTimeout(timer);
    release();
  }
}

/**
 * The `exp` of a JWT (seconds since the epoch) without verifying it: the authorization server
 * does that. Undefined when absent or unreadable.
 */
export function jwtExpiry(jwt: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")) as { exp?: unknown };
    return typeof payload.exp === "number" ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}
