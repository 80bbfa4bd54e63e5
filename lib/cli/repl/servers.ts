/**
 * MCP in the interactive session: servers connect in the background while the prompt is already
 * usable. A line in the live area names the ones still connecting (`Connecting MCP servers: a, b…`), the summary line
 * (`MCP: 2 connected, 1 failed (/mcp for details)`) is printed when the last one settles, and
 * `/mcp` shows each server's status, transport, counts and last error.
 */
import { noServersLine } from "../ui/server-lines.ts";
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";
import type { ServerSummary } from "../../agent/runtime/runtime-options.ts";
import type { Style } from "../ui/style.ts";
import { summaryLine } from "../ui/startup-status.ts";

/** Where the progress is shown: a live line, and lines printed for good. */
export interface ServerScreen {
  setNotice(line: string | undefined): void;
  print(text: string): void;
}

/** Follows the servers of one start-up; `attach` once the terminal exists. */
export class ServerProgress {
  private screen: ServerScreen | undefined;
  private readonly settled: ServerSummary[] = [];
  private summarized = false;

  constructor(
    private readonly style: Style,
    private readonly runtime: () => AgentRuntime | undefined,
  ) {}

  attach(screen: ServerScreen): void {
    this.screen = screen;
    this.draw();
  }

  /** One server connected or failed (the runtime's onMcpServerSettled). */
  readonly settle = (server: ServerSummary): void => {
    this.settled.push(server);
    this.draw();
  };

  private draw(): void {
    const runtime = this.runtime();
    if (!this.screen || !runtime) return;
    const waiting = [...runtime.connecting];
    if (!waiting.length) {
      this.screen.setNotice(undefined);
      // Once, over every configured server (those not started count as not connected).
      const summary = this.summarized ? "" : summaryLine(runtime.servers(), this.style);
      this.summarized = true;
      if (summary) this.screen.print(summary);
      return;
    }
    const connected = this.settled.filter((s) => s.status === "connected").length;
    const done = connected ? ` (${connected} connected)` : "";
    this.screen.setNotice(this.style.dim(`Connecting MCP servers: ${waiting.join(", ")}…${done}`));
  }
}

/**
 * `/mcp`: one line per server — `name: connected · stdio · 3 tools, 1 prompt, 2 resources` (then
 * `, 1 resource template` when it has any),
 * `name: connecting…`, `name: failed · stdio · <last error>`, `name: disabled (why)`.
 */
export function mcpStatus(runtime: AgentRuntime): string {
  const servers = runtime.mcpServers();
  if (!servers.length) return `${noServersLine(runtime.configProblems)}\n`;
  const lines = servers.map((s) => {
    const transport = s.config.type ?? "stdio";
    if (runtime.connecting.has(s.name)) return `${s.name}: connecting… · ${transport}`;
    if (s.status === "disabled") return `${s.name}: disabled (${s.error ?? "by its entry"})`;
    if (s.status === "failed") return `${s.name}: failed · ${transport} · ${s.error ?? "unknown error"}`;
    const templates = s.resourceTemplates?.length ? [count(s.resourceTemplates.length, "resource template")] : [];
    const skills = s.skills?.length ? [count(s.skills.length, "skill")] : [];
    const counts = [count(s.tools.length, "tool"), count(s.prompts.length, "prompt"), count(s.resources.length, "resource"), ...templates, ...skills].join(
      ", ",
    );
    // A 2025 session reads as it always has; a 2026-07-28 one says so.
    const revision = s.era === "modern" ? ` · modern ${s.protocolVersion}` : "";
    return `${s.name}: connected · ${transport}${revision} · ${counts}${s.error ? ` · last error: ${s.error}` : ""}`;
  });
  return `${lines.join("\n")}\n`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
