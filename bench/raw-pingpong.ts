/**
 * Baseline for the tools/call figures: the same server over the same kind of pipes (Bun.spawn,
 * FileSink writes flushed per message), with no JSON-RPC layer at all. Requests are hand-built
 * lines; a response is recognised only as "one more newline byte on stdout". Nothing is parsed,
 * so this is the ceiling a client could reach with this server (MCP 2025-11-25,
 * basic/transports#stdio framing only).
 */

const NEWLINE = 0x0a;
const INITIALIZE = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw-pingpong","version":"1.0.0"}}}\n`;
const INITIALIZED = `{"jsonrpc":"2.0","method":"notifications/initialized"}\n`;

/** The request line for call number `id` (ids from 1; 0 is initialize). */
export const echoCall = (id: number, text: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${JSON.stringify(text)}}}}\n`;

export class RawPeer {
  private received = 0;
  private nextId = 1;
  private waiter: { count: number; resolve: () => void; reject: (error: Error) => void } | undefined;
  private ended = false;
  private onLine: (() => void) | undefined;

  private constructor(private readonly proc: Bun.Subprocess<"pipe", "pipe", "ignore">) {
    void this.pump();
  }

  /**
   * Spawns `argv` in `cwd` and completes initialize → response → notifications/initialized.
   * @throws Error when the server closes its output first.
   */
  static async start(argv: string[], cwd: string): Promise<RawPeer> {
    const proc = Bun.spawn(argv, { cwd, stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    const peer = new RawPeer(proc);
    peer.send(INITIALIZE);
    await peer.lines(1);
    peer.send(INITIALIZED);
    return peer;
  }

  /** `count` echo calls one after another, each sent when the previous response line arrived; ms. */
  async sequential(count: number, text = "hi"): Promise<number> {
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      this.send(echoCall(this.nextId++, text));
      await this.lines(this.received + 1);
    }
    return performance.now() - started;
  }

  /** `count` echo calls with `inFlight` outstanding at all times (a new one per response line); ms. */
  async concurrent(count: number, inFlight: number, text = "hi"): Promise<number> {
    const started = performance.now();
    const target = this.received + count;
    let sent = 0;
    const sendOne = () => {
      sent++;
      this.send(echoCall(this.nextId++, text));
    };
    this.onLine = () => {
      if (sent < count) sendOne();
    };
    while (sent < Math.min(inFlight, count)) sendOne();
    await this.lines(target);
    this.onLine = undefined;
    return performance.now() - started;
  }

  /** Closes stdin (the server exits on EOF) and waits for the exit. */
  async close(): Promise<void> {
    void this.proc.stdin.end();
    await this.proc.exited;
  }

  private send(line: string): void {
    try {
      this.proc.stdin.write(line);
    } catch {
      // A dead server can break the pipe before its stdout's EOF is read: the same ending either way.
      throw endedError();
    }
    void Promise.resolve(this.proc.stdin.flush()).catch(() => {});
  }

  /** Resolves once `count` response lines have arrived in total; rejects if stdout ends first. */
  private lines(count: number): Promise<void> {
    if (this.received >= count) return Promise.resolve();
    if (this.ended) return Promise.reject(endedError());
    return new Promise((resolve, reject) => (this.waiter = { count, resolve, reject }));
  }

  private async pump(): Promise<void> {
    for await (const chunk of this.proc.stdout) {
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) {
        this.received++;
        this.onLine?.();
      }
      if (this.waiter && this.received >= this.waiter.count) {
        const { resolve } = this.waiter;
        this.waiter = undefined;
        resolve();
      }
    }
    // EOF: fail a waiter so a dead server fails the run instead of hanging it.
    this.ended = true;
    this.waiter?.reject(endedError());
  }
}

const endedError = () => new Error("raw ping-pong: the server closed its output");
