/**
 * The start-up status line on stderr while MCP servers start: on a terminal one live line
 * (`connecting 3 MCP servers…`) that log lines print above and that the final summary replaces
 * (`MCP: 2 connected, 1 failed (/mcp for details)`); elsewhere only the log lines and the summary.
 */
import type { Style } from "./style.ts";

export interface StatusStream {
  write(s: string): unknown;
  isTTY?: boolean;
}

/** Per-server outcome as the session reports it. */
export interface ServerOutcome {
  status: "connected" | "failed" | "disabled";
}

/** Erases the current terminal line: carriage return + EL (erase to end of line). */
const CLEAR_LINE = "\r\x1b[K";

/** The final summary: `MCP: 2 connected, 1 failed (/mcp for details)`; "" without servers. */
export function summaryLine(servers: ServerOutcome[], style: Style): string {
  if (!servers.length) return "";
  const connected = servers.filter((s) => s.status === "connected").length;
  const failed = servers.filter((s) => s.status === "failed").length;
  const disabled = servers.filter((s) => s.status === "disabled").length;
  const parts = [style.green(`${connected} connected`)];
  if (failed) parts.push(style.red(`${failed} failed`) + style.dim(" (/mcp for details)"));
  if (disabled) parts.push(style.dim(`${disabled} disabled`));
  return `MCP: ${parts.join(", ")}`;
}

/** The start-up status on one stream: `start`, then `settle` per server, `log` at any time, `finish`. */
export class StartupStatus {
  private live: string | undefined;
  private total = 0;
  private readonly settled: ServerOutcome[] = [];

  constructor(
    private readonly out: StatusStream,
    private readonly style: Style,
  ) {}

  /** Shows `connecting N MCP servers…` (on a terminal only; nothing for N = 0). */
  start(count: number): void {
    this.total = count;
    if (!count || !this.out.isTTY) return;
    this.draw();
  }

  /** Counts one server that connected or failed, redrawing the live line with the running counts. */
  readonly settle = (server: ServerOutcome): void => {
    this.settled.push(server);
    if (this.live !== undefined) this.draw();
  };

  private draw(): void {
    const n = this.total;
    const connected = this.settled.filter((s) => s.status === "connected").length;
    const failed = this.settled.length - connected;
    const counts = this.settled.length ? ` ${connected} connected${failed ? `, ${failed} failed` : ""}` : "";
    this.live = this.style.dim(`connecting ${n} MCP server${n === 1 ? "" : "s"}…${counts}`);
    this.out.write(CLEAR_LINE + this.live);
  }

  /** Prints one diagnostic line above the live line, which is then redrawn. */
  readonly log = (line: string): void => {
    if (this.live === undefined) {
      this.out.write(line + "\n");
      return;
    }
    this.out.write(`${CLEAR_LINE}${line}\n${this.live}`);
  };

  /** Ends the live line without a summary (start-up cut short), leaving the cursor on a fresh line. */
  abandon(): void {
    if (this.live !== undefined) this.out.write(CLEAR_LINE);
    this.live = undefined;
  }

  /** Replaces the live line by the summary of `servers` (nothing when there are none). */
  finish(servers: ServerOutcome[]): void {
    const summary = summaryLine(servers, this.style);
    if (this.live !== undefined) this.out.write(CLEAR_LINE);
    this.live = undefined;
    if (summary) this.out.write(summary + "\n");
  }
}
