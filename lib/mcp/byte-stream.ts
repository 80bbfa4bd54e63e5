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
  const onAbort = () => void reader.cancel().catch(() => {});
  if (signal?.aborted) onAbort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield value;
    }
    finished = true;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
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
