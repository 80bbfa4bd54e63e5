/** The shared promise helpers (async.ts): an abortable sleep and a race with an abort. */
import { expect, test } from "bun:test";
import { raceAbort, sleep } from "../../../lib/shared/async.ts";

test("sleep ends at once when its signal aborts, and at once when it was already aborted", async () => {
  const stop = new AbortController();
  const waiting = sleep(3_600_000, stop.signal);
  stop.abort(new Error("bye"));
  await waiting;
  await sleep(3_600_000, stop.signal);
});

test("sleep without a signal ends after its time", async () => {
  let done = false;
  const waiting = sleep(1).then(() => (done = true));
  expect(done).toBe(false);
  await waiting;
  expect(done).toBe(true);
});

test("raceAbort gives the work's value or error, or the abort's reason as soon as it fires", async () => {
  expect(await raceAbort(Promise.resolve(7), new AbortController().signal)).toBe(7);
  await expect(raceAbort(Promise.reject(new Error("work failed")), new AbortController().signal)).rejects.toThrow("work failed");
  const stop = new AbortController();
  const never = raceAbort(new Promise(() => {}), stop.signal);
  stop.abort(new Error("stopped"));
  await expect(never).rejects.toThrow("stopped");
  await expect(raceAbort(Promise.resolve(1), stop.signal)).rejects.toThrow("stopped");
  expect(await raceAbort(Promise.resolve(2), undefined)).toBe(2);
});
