/**
 * A bounded text accumulator for command output that may be hundreds of megabytes:
 * keeps the first and the last characters and counts what falls in between, so memory
 * stays flat however much is appended.
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private total = 0;

  /** `headChars` and `tailChars` are the most characters kept from the start and from the end. */
  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  append(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === "") return;
    this.tail += chunk;
    // Trim only once the tail has doubled, so appends stay amortised linear.
    if (this.tail.length > 2 * this.tailChars) this.tail = this.tail.slice(-this.tailChars);
  }

  /** Characters appended but not kept. */
  get omitted(): number {
    return this.total - this.head.length - Math.min(this.tail.length, this.tailChars);
  }

  /** Head, then a note saying how many characters were left out when any were, then tail. */
  toString(): string {
    const tail = this.tail.slice(-this.tailChars);
    const omitted = this.omitted;
    if (omitted === 0) return this.head + tail;
    return `${this.head}\n\n... [${omitted} characters of output omitted] ...\n\n${tail}`;
  }
}
