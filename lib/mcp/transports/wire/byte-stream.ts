/**
 * Byte-stream plumbing shared by the stdio line framing (framing.ts) and the SSE parser (sse.ts):
 * reading chunks with an abort that works even while another process holds the pipe open, and
 * the one copy that joins a message's pieces.
 */

/**
 * The chunks of `stream` until EOF or until `signal` aborts (the stream is then cancelled, which
 * resolves a pending read). Stopping the iteration early cancels the stream too.
 * @throws whatever the stream itself errors with.
 */
export async function* chunks(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  const release = abortable(reader, signal);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
    finished = true;
  } finally {
    await release(finished);
  }
}

type ReadMany = () => Promise<{ done: boolean; value: Uint8Array[] }> | { done: boolean; value: Uint8Array[] };

/**
 * Like `chunks`, but every chunk already queued at once where the runtime can (Bun's `readMany`;
 * one `read` per chunk elsewhere): a 10 MB reply arrives in a few batches instead of forty reads,
 * each a turn of the event loop, and reaches a parser measurably sooner.
 * @throws whatever the stream itself errors with.
 */
export async function* batches(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array[]> {
  const reader = stream.getReader();
  const readMany = (reader as { readMany?: ReadMany }).readMany?.bind(reader);
  if (!readMany) {
    reader.releaseLock();
    for await (const chunk of chunks(stream, signal)) yield [chunk];
    return;
  }
  const release = abortable(reader, signal);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await readMany();
      if (value.length > 0) yield value;
      if (done) break;
    }
    finished = true;
  } finally {
    await release(finished);
  }
}

/**
 * Cancels `reader` when `signal` aborts, which resolves a pending read even while another process
 * holds the pipe open. The call returned undoes that, cancels the stream unless it was read to the
 * end, and frees the lock.
 */
function abortable(reader: { cancel(): Promise<void>; releaseLock(): void }, signal: AbortSignal | undefined): (finished: boolean) => Promise<void> {
  const onAbort = () => void reader.cancel().catch(() => {});
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  return async (finished) => {
    signal?.removeEventListener("abort", onAbort);
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  };
}

/** `pieces` (holding `piecesBytes` bytes in all) followed by `tail`, in one new buffer. */
export function concat(pieces: readonly Uint8Array[], piecesBytes: number, tail: Uint8Array): Uint8Array {
  const joined = new Uint8Array(piecesBytes + tail.length);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  joined.set(tail, at);
  return joined;
}
