/**
 * The start-up status line (lib/cli/ui/startup-status.ts).
 */
import { describe, expect, test } from "bun:test";
import { createStyle } from "../../../../lib/cli/ui/style.ts";
import { StartupStatus, summaryLine } from "../../../../lib/cli/ui/startup-status.ts";

const plain = createStyle(false);

describe("start-up status", () => {
  const stream = (isTTY: boolean) => {
    const chunks: string[] = [];
    return { chunks, isTTY, write: (s: string) => chunks.push(s) };
  };

  test("on a terminal: a live line with running counts, log lines above it, replaced by the summary", () => {
    const out = stream(true);
    const status = new StartupStatus(out, plain);
    status.start(3);
    status.settle({ status: "connected" });
    status.log('MCP server "db" failed to start: boom');
    status.settle({ status: "failed" });
    status.finish([{ status: "connected" }, { status: "connected" }, { status: "failed" }]);
    expect(out.chunks.join("")).toBe(
      "\r\x1b[Kconnecting 3 MCP servers…" +
        "\r\x1b[Kconnecting 3 MCP servers… 1 connected" +
        '\r\x1b[KMCP server "db" failed to start: boom\nconnecting 3 MCP servers… 1 connected' +
        "\r\x1b[Kconnecting 3 MCP servers… 1 connected, 1 failed" +
        "\r\x1b[KMCP: 2 connected, 1 failed (/mcp for details)\n",
    );
  });

  test("abandoned (the user left while servers connected): the live line is cleared, no summary", () => {
    const out = stream(true);
    const status = new StartupStatus(out, plain);
    status.start(2);
    status.abandon();
    expect(out.chunks.join("")).toBe("\r\x1b[Kconnecting 2 MCP servers…\r\x1b[K");
  });

  test("elsewhere: no live line; nothing at all without servers", () => {
    const out = stream(false);
    const status = new StartupStatus(out, plain);
    status.start(1);
    status.finish([{ status: "connected" }]);
    expect(out.chunks.join("")).toBe("MCP: 1 connected\n");
    expect(summaryLine([], plain)).toBe("");
  });
});
