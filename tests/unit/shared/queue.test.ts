/** The shared async queue (queue.ts): push order, a waiting consumer woken, end after draining. */
import { expect, test } from "bun:test";
import { AsyncQueue } from "../../../lib/shared/queue.ts";

test("next waits for a push, gives items in order, and undefined once ended and drained", async () => {
  const q = new AsyncQueue<number>();
  const first = q.next();
  q.push(1);
  q.push(2);
  expect(await first).toBe(1);
  q.end();
  q.push(3);
  expect(await q.next()).toBe(2);
  expect(await q.next()).toBeUndefined();
  expect(q.isEnded).toBe(true);
});

test("iterating reads what was pushed before and after, then stops at end", async () => {
  const q = new AsyncQueue<string>();
  q.push("a");
  const seen: string[] = [];
  const reading = (async () => {
    for await (const item of q) seen.push(item);
  })();
  q.push("b");
  await Promise.resolve();
  q.push("c");
  q.end();
  await reading;
  expect(seen).toEqual(["a", "b", "c"]);
});

test("a long queue keeps its order across the compaction of read items", async () => {
  const q = new AsyncQueue<number>();
  for (let i = 0; i < 3000; i++) q.push(i);
  q.end();
  const got: number[] = [];
  for await (const n of q) got.push(n);
  expect(got).toEqual(Array.from({ length: 3000 }, (_, i) => i));
});
