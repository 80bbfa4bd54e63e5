/**
 * TLS failures of remote MCP servers through the real program: a server whose certificate has
 * expired, or is self-signed and trusted by nobody, is one stderr line at start-up naming the
 * server, its origin and the TLS reason, with no stack trace; the run goes on with the other
 * servers and its exit code does not change. NODE_EXTRA_CA_CERTS is the way to trust a private CA;
 * a trusted certificate for another host name is refused too.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type HttpFixture, startHttpFixture } from "../../../fixtures/servers/http-server.ts";
import { lines, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent } from "../../support/run.ts";
import { type CertPair, makeTestCerts } from "../../support/tls-certs.ts";

const certs = makeTestCerts();
if (!certs) console.warn("agent-mcp-http-tls: openssl not found; the TLS tests are skipped");

const fixtures: HttpFixture[] = [];
afterEach(() => {
  stopProjects();
  for (const f of fixtures.splice(0)) f.stop();
});

function httpsFixture(pair: CertPair): HttpFixture {
  const f = startHttpFixture(["--tls-cert", pair.cert, "--tls-key", pair.key]);
  fixtures.push(f);
  return f;
}

const origin = (url: string) => new URL(url).origin;

describe.skipIf(!certs)("TLS", () => {
  test("an expired certificate: one line per server (http and sse), the others work, exit 0", async () => {
    const f = httpsFixture(certs!.expired);
    expect(f.url).toStartWith("https://127.0.0.1:");
    const p = project({ secure: { type: "http", url: f.url }, old: { type: "sse", url: f.sseUrl }, ok: fixtureServer() }, [
      reply(toolUse("mcp__ok__echo", { text: "healthy" })),
      reply(text("done")),
    ]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResult(p.model.requests[1]!).content).toBe("healthy");
    expect(toolNames(p.model.requests[0]!).some((n) => n.startsWith("mcp__secure__") || n.startsWith("mcp__old__"))).toBe(false);
    const reason = `TLS: certificate has expired (CERT_HAS_EXPIRED) from ${origin(f.url)}`;
    // The legacy transport's stream is its connection, so its end is reported as such.
    expect(lines(r.stderr).sort()).toEqual([
      `MCP server "old" failed to start: ${reason} before the handshake`,
      `MCP server "secure" failed to start: ${reason}`,
    ]);
  });

  test("a self-signed certificate nobody trusts: one line; trusted through NODE_EXTRA_CA_CERTS it connects", async () => {
    const f = httpsFixture(certs!.selfSigned);
    const p = project({ secure: { type: "http", url: f.url } }, [
      reply(text("no tools")),
      reply(toolUse("mcp__secure__echo", { text: "trusted" })),
      reply(text("done")),
    ]);
    const refused = await p.run("go");
    expect([refused.code, refused.stdout]).toEqual([0, "no tools\n"]);
    expect(lines(refused.stderr)).toEqual([
      `MCP server "secure" failed to start: TLS: self signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT) from ${origin(f.url)}`,
    ]);
    // The same failure in the inspector: the status line carries the reason.
    const list = await runAgent(["mcp", "list"], { cwd: p.dir });
    expect(list.code).toBe(1);
    expect(list.stdout).toMatch(/^secure\s+failed\s+http https:\/\/127\.0\.0\.1:\d+\/mcp\s+TLS: self signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)/m);
    for (const out of [refused.stderr, list.stdout, list.stderr]) expect(out).not.toMatch(/^\s+at /m);

    const trusted = await p.run("go", { env: { NODE_EXTRA_CA_CERTS: certs!.selfSigned.cert } });
    expect([trusted.code, trusted.stdout, trusted.stderr]).toEqual([0, "done\n", ""]);
    expect(toolResult(p.model.requests[2]!).content).toBe("trusted");
  });

  test("a trusted certificate for another name: one line saying so, without the runtime's advice to its own programmers", async () => {
    const f = httpsFixture(certs!.selfSigned);
    const url = f.url.replace("127.0.0.1", "localhost");
    const p = project({ secure: { type: "http", url } }, [reply(text("done"))]);
    const r = await p.run("go", { env: { NODE_EXTRA_CA_CERTS: certs!.selfSigned.cert } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(lines(r.stderr)).toEqual([
      `MCP server "secure" failed to start: TLS: the certificate is not valid for this host name (ERR_TLS_CERT_ALTNAME_INVALID) from ${origin(url)}`,
    ]);
  });
});
