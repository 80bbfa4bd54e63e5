/**
 * An HTTP server that refuses everything (400 to the POST, 405 to the GET: a wrong path on many
 * web servers, or a revision we do not speak) fails with its one line, and the run goes on
 * (MCP 2025-11-25, basic/transports#backwards-compatibility: the legacy fallback fails too). Once
 * this ended `-p` in silence with exit 0, hung it beside a stdio server, and left `mcp list` empty.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { reply, startModelServer, text } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const refusing = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req) => new Response("nope", { status: req.method === "POST" ? 400 : 405 }),
});
const url = `http://127.0.0.1:${refusing.port}/mcp`;
afterAll(() => refusing.stop(true));

const failure = `MCP server "bad" failed to start: Streamable HTTP: HTTP 400 Bad Request from ${url} (body: nope); legacy HTTP+SSE: HTTP 405 Method Not Allowed from ${url} (body: nope) before the handshake`;

describe("a server refusing every request", () => {
  for (const [label, servers] of [
    ["alone in the config", { bad: { type: "http", url } }],
    ["beside a stdio server", { bad: { type: "http", url }, fx: fixtureServer() }],
  ] as const) {
    test(`${label}: -p says why in one line, calls the model, answers and exits 0`, async () => {
      const dir = tempDir();
      writeMcpConfig(dir, servers);
      const model = startModelServer([reply(text("done"))]);
      try {
        const r = await runAgent(["-p", "go"], { cwd: dir, model: model.url });
        expect(r).toEqual({ code: 0, stdout: "done\n", stderr: `${failure}\n` });
        expect(model.requests).toHaveLength(1);
      } finally {
        model.stop();
      }
    });
  }

  test("mcp list prints a line for every server, the refusing one with its reason", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { bad: { type: "http", url }, fx: fixtureServer() });
    const r = await runAgent(["mcp", "list"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^bad +failed +http .*legacy HTTP\+SSE: HTTP 405/m);
    expect(r.stdout).toMatch(/^fx +connected +stdio .* 14 tools/m);
  });

  test("mcp call on it fails with the reason, exit 1", async () => {
    const dir = tempDir();
    writeMcpConfig(dir, { bad: { type: "http", url } });
    const r = await runAgent(["mcp", "call", "bad", "echo", "{}"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("legacy HTTP+SSE: HTTP 405 Method Not Allowed");
  });
});
