/**
 * The HTTP fault suite (fixtures/servers/http-fault-server.ts breaks HTTP itself), through the
 * built binary in `-p` beside a healthy stdio server: a call fault gives that call an error result
 * naming the server and what went wrong, the server's other tool still works, and no `tools/call`
 * reaches the server twice unless it was refused unprocessed (429); a start-up fault is one
 * stderr line. A timeout is reported in the product's own words, and the run answers and exits 0.
 * No assertion reads the clock: a loaded machine only makes it slower.
 */
import { describe, expect, test } from "bun:test";
import { type HttpFaultServer, startHttpFaultServer } from "../../../fixtures/servers/http-fault-server.ts";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { slots } from "../../support/wait.ts";

/** The faulting server's tool timeout, in ms: short, since a call timing out is the subject. */
const TIMEOUT_MS = 1500;
/** Its start-up timeout, and the tool timeout where no timeout is the subject, in ms: long enough for any machine. */
const LONG_MS = 60_000;
/** Runs at once: each is the agent and a stdio server; all at once on two cores starve each other. */
const FAULT_SLOTS = 4;
const timedOut = `MCP tool boom on server "h" timed out after ${TIMEOUT_MS} ms (MCP_TOOL_TIMEOUT); the call was cancelled`;

/** What the model read for `boom`, and how many times the server saw it; or the start-up line. */
type Expected = { boom: string | RegExp; isError: boolean; calls: number } | { startup: string | RegExp };

const FAULTS: Record<string, Expected> = {
  "reset-mid-sse": {
    boom: 'MCP server "h" failed the call of boom: the reply stream of tools/call ended before its response, with no event id to resume from',
    isError: true,
    calls: 1,
  },
  "5xx-burst": {
    boom: /^MCP server "h" failed the call of boom: HTTP 503 Service Unavailable from http:\/\/127\.0\.0\.1:\d+\/mcp \(body: busy\)$/,
    isError: true,
    calls: 1,
  },
  "429": { boom: "boom answered", isError: false, calls: 2 },
  "headers-never-sent": { boom: timedOut, isError: true, calls: 1 },
  "truncated-chunked": { boom: /^MCP server "h" failed the call of boom: ECONNRESET/, isError: true, calls: 1 },
  "slow-loris": { boom: timedOut, isError: true, calls: 1 },
  "redirect-loop": { startup: /^MCP server "h" failed to start: too many redirects \(more than 5\) from http:/ },
  "huge-header": { startup: /^MCP server "h" failed to start: .*ResponseHeadersTooLarge/ },
  "refuse-all": { startup: /^MCP server "h" failed to start: Streamable HTTP: HTTP 400 Bad Request .*; legacy HTTP\+SSE: HTTP 405 Method Not Allowed/ },
  "5xx-all": { startup: /^MCP server "h" failed to start: HTTP 503 Service Unavailable from http:.* \(body: down\)$/ },
};

/** Runs -p against `server` (as "h") and a healthy stdio "ok": boom on h, echo on h, echo on ok. */
async function run(server: HttpFaultServer, expected: Expected) {
  const dir = tempDir();
  // The short tool timeout only where it is the subject: a 429's one-second Retry-After must not race it.
  const toolTimeout = "boom" in expected && expected.boom === timedOut ? TIMEOUT_MS : LONG_MS;
  writeMcpConfig(dir, { h: { type: "http", url: server.url, timeout: LONG_MS, toolTimeout }, ok: fixtureServer() });
  const model = startModelServer([
    reply(toolUse("mcp__h__boom", {})),
    reply(toolUse("mcp__h__echo", { text: "h works" })),
    reply(toolUse("mcp__ok__echo", { text: "still here" })),
    reply(text("done")),
  ]);
  try {
    // The kill is only for a hung run.
    const r = await runAgent(["-p", "go"], { cwd: dir, model: model.url, timeoutMs: 200_000 });
    const read = model.requests.slice(1).map((q) => q.body.messages.at(-1).content[0]);
    return { r, read };
  } finally {
    model.stop();
  }
}

const slot = slots(FAULT_SLOTS);

describe("an HTTP server faulting", () => {
  for (const [fault, expected] of Object.entries(FAULTS)) {
    test.concurrent(
      fault,
      () =>
        slot(async () => {
          const server = await startHttpFaultServer(fault);
          try {
            const { r, read } = await run(server, expected);
            expect([r.code, r.stdout]).toEqual([0, "done\n"]);
            expect(read[2]).toMatchObject({ content: "still here" });
            if ("startup" in expected) {
              const lines = r.stderr.split("\n").filter(Boolean);
              expect(lines).toHaveLength(1);
              expect(lines[0]).toMatch(expected.startup);
              return;
            }
            expect(r.stderr).toBe("");
            if (typeof expected.boom === "string") expect(read[0].content).toBe(expected.boom);
            else expect(read[0].content).toMatch(expected.boom);
            expect(read[0].is_error ?? false).toBe(expected.isError);
            expect(read[1]).toMatchObject({ content: "h works" });
            // At most once: a call is sent again only when the server refused it unprocessed (429).
            expect(server.calls).toEqual({ boom: expected.calls, echo: 1 });
          } finally {
            server.stop();
          }
        }),
      240_000,
    );
  }

  test("a server that goes away and comes back: the call meanwhile says so, its tools stay offered, the next call works", async () => {
    let server = await startHttpFaultServer("none");
    const port = Number(new URL(server.url).port);
    const dir = tempDir();
    writeMcpConfig(dir, { h: { type: "http", url: server.url, timeout: LONG_MS, toolTimeout: TIMEOUT_MS } });
    const model = startModelServer([
      async () => {
        server.stop();
        return reply(toolUse("mcp__h__echo", { text: "while down" }));
      },
      async () => {
        server = await startHttpFaultServer("none", port);
        return reply(toolUse("mcp__h__echo", { text: "back" }));
      },
      reply(text("done")),
    ]);
    try {
      const r = await runAgent(["-p", "go"], { cwd: dir, model: model.url, timeoutMs: 200_000 });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      const [down, back] = model.requests.slice(1).map((q) => q.body.messages.at(-1).content[0]);
      expect(down).toMatchObject({
        is_error: true,
        content: expect.stringMatching(/^MCP server "h" failed the call of echo: cannot connect to http:\/\/127\.0\.0\.1:\d+/),
      });
      expect(back).toMatchObject({ content: "back" });
      const offered = model.requests.map((q) => JSON.stringify(q.body.tools));
      expect(new Set(offered).size).toBe(1);
    } finally {
      model.stop();
      server.stop();
    }
  }, 240_000);

  test("a server back within the tool timeout: the call made while it was down waits for it and is answered, once", async () => {
    let server = await startHttpFaultServer("none");
    const port = Number(new URL(server.url).port);
    const dir = tempDir();
    // The call waits as long as its tool timeout allows: long, so a loaded machine's slow restart is still within it.
    writeMcpConfig(dir, { h: { type: "http", url: server.url, timeout: LONG_MS, toolTimeout: LONG_MS } });
    let back: Promise<HttpFaultServer> | undefined;
    const model = startModelServer([
      () => {
        server.stop();
        // Back in 300 ms: the call, refused meanwhile (so never received), is sent again with back-off.
        back = Bun.sleep(300).then(() => startHttpFaultServer("none", port));
        return reply(toolUse("mcp__h__echo", { text: "waited" }));
      },
      reply(text("done")),
    ]);
    try {
      const r = await runAgent(["-p", "go"], { cwd: dir, model: model.url, timeoutMs: 200_000 });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      expect(model.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ content: "waited" });
      server = await back!;
      expect(server.calls).toEqual({ echo: 1 });
    } finally {
      model.stop();
      server.stop();
    }
  }, 240_000);
});
