/** Deadlines (lib/mcp/session/deadline.ts): clocks that stand still while held, then run out the time they had left. */
import { expect, test } from "bun:test";
import { Deadlines } from "../../../../lib/mcp/session/deadline.ts";

test("held clocks do not expire, those started meanwhile included; released, they do; a stopped one never does", async () => {
  const deadlines = new Deadlines();
  const fired: string[] = [];
  const clock = (name: string) =>
    new Promise<void>((resolve) =>
      deadlines.start(5, () => {
        fired.push(name);
        resolve();
      }),
    );
  const first = clock("first");
  const stop = deadlines.start(1, () => fired.push("stopped"));
  const release = deadlines.hold();
  const nested = deadlines.hold();
  const later = clock("started while held");
  // Absence has no event to await: it is checked after well over the clocks' 5 ms.
  await Bun.sleep(50);
  release();
  release(); // idempotent: the nested hold still holds
  await Bun.sleep(50);
  expect(fired).toEqual([]);
  stop();
  nested();
  await Promise.all([first, later]);
  expect(fired.sort()).toEqual(["first", "started while held"]);
});
