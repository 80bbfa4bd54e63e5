/**
 * A seeded PRNG (mulberry32) for property and fuzz tests: a failing seed reproduces exactly.
 */
export function prng(seed: number): { next(): number; int(max: number): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  return { next, int, pick: (items) => items[int(items.length)]! };
}

/** Cuts `bytes` at random points into chunks of 0..maxChunk bytes (empty chunks included). */
export function randomSplit(bytes: Uint8Array, rand: ReturnType<typeof prng>, maxChunk = 16): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = rand.int(maxChunk + 1);
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  return chunks;
}

/** A ReadableStream delivering exactly these chunks, then EOF. */
export function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}
