/**
 * Everything the program prints on stdout goes through `writeStdout`. process.stdout.write keeps
 * what a full pipe cannot take yet in memory, and process.exit drops it: a slow reader (a pager, a
 * script) would get the output cut short. A reader that leaves early (`| head`) is not an error.
 */

/** Set once stdout's reader has gone (EPIPE); later writes are dropped. */
let readerGone = false;

/**
 * Writes `text` (UTF-8) and resolves once all of it has been handed to the OS. Resolves false
 * without writing when the reader has closed the pipe (EPIPE, now or before): the output is no
 * longer wanted, so the program carries on and exits as it would have.
 * @throws the write error for anything but EPIPE (a full disk behind `> file`).
 */
export async function writeStdout(text: string): Promise<boolean> {
  if (readerGone) return false;
  try {
    await Bun.write(Bun.stdout, text);
    return true;
  } catch (err) {
    if ((err as { code?: string }).code !== "EPIPE") throw err;
    readerGone = true;
    return false;
  }
}
