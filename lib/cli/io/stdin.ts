/**
 * Piped stdin for -p. When the prompt is an argument, stdin is optional: a pipe that stays open
 * without sending anything must not stall the run, so we give it a short window to start.
 */

/** How long a silent pipe may delay the first model call when a prompt argument is given (ms). */
export const STDIN_GRACE_MS = 200;

/**
 * Reads piped stdin to EOF. With `waitForFirstByteMs`, gives up (returning "") when nothing has
 * arrived by then; once data arrives, reads to EOF. A terminal gives "" at once.
 */
export async function readPipedStdin(waitForFirstByteMs?: number): Promise<string> {
  if (process.stdin.isTTY) return "";
  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  let timer: Timer | undefined;
  const first = await Promise.race([
    reader.read(),
    ...(waitForFirstByteMs === undefined ? [] : [new Promise<null>((r) => (timer = setTimeout(() => r(null), waitForFirstByteMs)))]),
  ]);
  clearTimeout(timer);
  if (first === null) {
    reader.releaseLock();
    return "";
  }
  for (let r = first; !r.done; r = await reader.read()) chunks.push(r.value);
  return Buffer.concat(chunks).toString("utf8");
}
