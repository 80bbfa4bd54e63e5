/**
 * Workload identity through `-p` (SEP-1933, RFC 7523): a server whose `oauth` names
 * `"grantType": "jwt_bearer"` gets its token for the workload's JWT, read from `assertionFile`
 * for each token request or printed by `assertionCommand`; `--debug` shows neither the JWT nor
 * the token; the stored token never outlives the JWT's `exp`; a refusal is one line and never
 * retried. The authorization server is tests/support/wif-as.ts, the MCP server our HTTP fixture.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HttpFixture, startHttpFixture } from "../../../fixtures/servers/http-server.ts";
import { project, stopProjects, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { startWifServer, type WifServer } from "../../support/wif-as.ts";

const PRM_PATH = "/.well-known/oauth-protected-resource/mcp";
let fixture: HttpFixture;
let wif: WifServer;

beforeAll(async () => {
  let resource = "";
  fixture = startHttpFixture([], {
    authorize: (req) => {
      const url = new URL(req.url);
      if (url.pathname === PRM_PATH) return Response.json({ resource, authorization_servers: [wif.issuer] });
      const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
      if (wif.tokens.has(token)) return undefined;
      return new Response("{}", { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${url.origin}${PRM_PATH}"` } });
    },
  });
  resource = fixture.url;
  wif = await startWifServer(resource);
});
afterAll(() => {
  fixture?.stop();
  wif?.stop();
});
afterEach(() => {
  stopProjects();
  wif.requests.length = 0;
  wif.tokens.clear();
  wif.refuse = undefined;
});

function wifProject(oauth: Record<string, unknown>, script: Parameters<typeof project>[1]) {
  const config = tempDir("agent-oauth-config-");
  const p = project({ fx: { type: "http", url: fixture.url, oauth: { grantType: "jwt_bearer", clientId: "workload-client", ...oauth } } }, script);
  return {
    ...p,
    tokens: () => JSON.parse(readFileSync(join(config, "mcp-oauth.json"), "utf8")).issuers[wif.issuer][fixture.url].tokens,
    run: (args: string[] = []) => p.run("go", { args, env: { CLAUDE_CONFIG_DIR: config } }),
  };
}

const echo = (word: string) => [reply(toolUse("mcp__fx__echo", { text: word })), reply(text(`said ${word}`))];

describe("workload identity (jwt-bearer)", () => {
  test("from a file, read afresh for each token request; --debug shows neither JWT nor token; the token is kept no longer than the JWT lives", async () => {
    const file = join(tempDir(), "token.jwt");
    const first = await wif.sign({ exp: 120 });
    writeFileSync(file, first);
    const p = wifProject({ assertionFile: file }, [...echo("one"), ...echo("two")]);
    const one = await p.run(["--debug"]);
    expect([one.code, one.stdout]).toEqual([0, "said one\n"]);
    expect(toolResult(p.model.requests[1]!).content).toBe("one");
    expect(wif.requests.map((r) => [r.get("assertion"), r.get("client_id")])).toEqual([[first, "workload-client"]]);
    const stored = p.tokens();
    for (const secret of [first, stored.access_token]) expect(one.stderr).not.toContain(secret);
    const exp = JSON.parse(Buffer.from(first.split(".")[1]!, "base64url").toString()).exp;
    expect(stored.expires_at).toBe(exp * 1000);

    // The workload's token rotated and the server forgot ours: the next request uses the new JWT.
    const second = await wif.sign({ exp: 120 });
    writeFileSync(file, second);
    wif.tokens.clear();
    const two = await p.run();
    expect([two.code, two.stdout, two.stderr]).toEqual([0, "said two\n", ""]);
    expect(wif.requests.map((r) => r.get("assertion"))).toEqual([first, second]);
  }, 30_000);

  test("from a command", async () => {
    const file = join(tempDir(), "token.jwt");
    const jwt = await wif.sign();
    writeFileSync(file, jwt);
    const p = wifProject({ assertionCommand: `cat ${file}` }, echo("cmd"));
    const r = await p.run(["--debug"]);
    expect([r.code, r.stdout]).toEqual([0, "said cmd\n"]);
    expect(wif.requests.map((q) => q.get("assertion"))).toEqual([jwt]);
    expect(r.stderr).not.toContain(jwt);
  }, 30_000);

  test("a refusal (invalid_grant) is one line naming the server's error, sent once, never retried", async () => {
    const file = join(tempDir(), "token.jwt");
    writeFileSync(file, await wif.sign({ aud: "https://someone-else.test" }));
    const p = wifProject({ assertionFile: file }, [reply(text("went on"))]);
    const r = await p.run();
    expect([r.code, r.stdout]).toEqual([0, "went on\n"]);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain('MCP server "fx"');
    expect(r.stderr).toContain("invalid_grant: wrong audience");
    expect(wif.requests).toHaveLength(1);
  }, 30_000);
});
