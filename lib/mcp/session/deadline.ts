/**
 * The timeouts of one connection's pending requests, as clocks that can stand still. While we
 * serve the peer's own request (a form a person fills in, a sampling request waiting on consent:
 * MCP 2025-11-25 client/elicitation, client/sampling), the peer's answers to our requests wait on
 * us, so every clock stops and later resumes with the time it had left. Timers only: no I/O.
 */

interface Clock {
  /** ms still to run. */
  left: number;
  /** When it last started running (performance.now(), ms). */
  since: number;
  handle?: ReturnType<typeof setTimeout>;
  expire: () => void;
}

export class Deadlines {
  private readonly live = new Set<Clock>();
  private holds = 0;

  /**
   * Calls `expire` once `ms` of unheld time has passed; a clock started during a hold waits for
   * its end. Returns the function that stops it for good (idempotent).
   */
  start(ms: number, expire: () => void): () => void {
    const clock: Clock = { left: ms, since: 0, expire };
    this.live.add(clock);
    if (this.holds === 0) this.run(clock);
    return () => {
      clearTimeout(clock.handle);
      this.live.delete(clock);
    };
  }

  /** Stops every clock until the returned release is called (idempotent); holds nest. */
  hold(): () => void {
    if (this.holds++ === 0) for (const clock of this.live) this.stop(clock);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--this.holds === 0) for (const clock of this.live) this.run(clock);
    };
  }

  private run(clock: Clock): void {
    clock.since = performance.now();
    clock.handle = setTimeout(
      () => {
        this.live.delete(clock);
        clock.expire();
      },
      Math.max(0, clock.left),
    );
  }

  private stop(clock: Clock): void {
    clearTimeout(clock.handle);
    clock.handle = undefined;
    clock.left -= performance.now() - clock.since;
  }
}
