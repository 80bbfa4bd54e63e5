/**
 * One async queue, written once: many producers push, one consumer reads in push order (by `next`
 * or by iterating), and `end` lets the consumer drain what is queued and stop. Used by the HTTP
 * transports' incoming messages and host mode's user turns. Read items are dropped at once, so a
 * 10 MB message is not kept alive by the queue.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: (T | undefined)[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private ended = false;

  /** Queues one item; ignored after `end`. */
  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.wakeUp();
  }

  /** Ends the queue once what is queued has been read. Idempotent. */
  end(): void {
    this.ended = true;
    this.wakeUp();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** The next item, once there is one; undefined when the queue ended and is drained. */
  async next(): Promise<T | undefined> {
    return (await this.ready()) ? this.take() : undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    while (await this.ready()) yield this.take();
  }

  /** True once an item is queued; false once the queue ended with none left. */
  private async ready(): Promise<boolean> {
    for (;;) {
      if (this.head < this.items.length) return true;
      if (this.ended) return false;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private take(): T {
    const item = this.items[this.head] as T;
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return item;
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
