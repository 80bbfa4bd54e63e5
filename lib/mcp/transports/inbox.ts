/**
 * The incoming side of a transport that is not one byte stream (HTTP: each POST reply and each SSE
 * stream delivers messages): many producers push, the session layer iterates once, in push order.
 */
import type { FramedLine } from "./wire/framing.ts";

export class Inbox implements AsyncIterable<FramedLine> {
  private readonly queue: FramedLine[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private ended = false;

  /** Queues one serialised message; ignored after `end`. */
  push(message: FramedLine): void {
    if (this.ended) return;
    this.queue.push(message);
    this.wake?.();
  }

  /** Ends the iteration once what is queued has been read. Idempotent. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<FramedLine> {
    for (;;) {
      while (this.head < this.queue.length) {
        const message = this.queue[this.head]!;
        // Drop the reference so a 10 MB result is not kept alive by the queue.
        (this.queue as (FramedLine | undefined)[])[this.head++] = undefined;
        if (this.head > 1024 && this.head * 2 > this.queue.length) {
          this.queue.splice(0, this.head);
          this.head = 0;
        }
        yield message;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
