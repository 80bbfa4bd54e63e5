/**
 * The 2026-07-28 authorization rules through the whole program, against real authorization
 * servers (oidc-provider): DPoP-bound tokens with nonces at both ends (SEP-1932, RFC 9449), the
 * key file and `mcp logout`; a version 1 token store still logged in after the upgrade; a server
 * whose resource metadata moves to another authorization server gets a new registration there
 * and nothing of the old one is kept (SEP-2352). SKIP_SLOW=1 skips it locally, never under CI.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HttpFixture, startHttpFixture } from "../../../fixtures/servers/http-server.ts";
import { lines, project, stopProjects, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { bearerCheck, type OidcServer, resourceMetadata, startOidc } from "../../support/oidc.ts";
import type { DpopRequirements } from "../../support/oidc-dpop.ts";
import { BUN, ROOT, runAgent, tempDir } from "../../support/run.ts";

const skip = process.env.SKIP_SLOW === "1" && !process.env.CI;
const BROWSER = `${BUN} ${join(ROOT, "tests/support/oidc-browser.ts")}`;
const PRM_PATH = "/.well-known/oauth-protected-resource/mcp";
const RS_NONCE = "resource-server-nonce-1";

let fixture: HttpFixture;
let dpopAs: OidcServer;
let plainA: OidcServer;
let plainB: OidcServer;
/** The authorization server the resource metadata names now. */
let current: () => OidcServer;
/** Every DPoP proof the MCP server received, to look for in the program's output. */
const proofs: string[] = [];
const dpop: DpopRequirements = { nonce: RS_NONCE, seen: new Set() };

beforeAll(async () => {
  let resource = "";
  fixture = startHttpFixture([], {
    authorize: async (req) => {
      const url = new URL(req.url);
      if (url.pathname === PRM_PATH) return resourceMetadata(resource, current().issuer, ["mcp:read"]);
      const proof = req.headers.get("dpop");
      if (proof) proofs.push(proof);
      return bearerCheck(current().provider, req, resource, `${url.origin}${PRM_PATH}`, ["mcp:read"], current() === dpopAs ? dpop : undefined);
    },
  });
  resource = fixture.url;
  const scopes = ["mcp:read"];
  [dpopAs, plainA, plainB] = await Promise.all([
    startOidc({ resource, scopes, dpop: { requireNonce: true } }),
    startOidc({ resource, scopes }),
    startOidc({ resource, scopes }),
  ]);
});
afterAll(async () => {
  fixture?.stop();
  await Promise.all([dpopAs?.close(), plainA?.close(), plainB?.close()]);
});
afterEach(() => stopProjects());

function oauthProject(script: Parameters<typeof project>[1]) {
  const config = tempDir("agent-oauth-config-");
  const p = project({ fx: { type: "http", url: fixture.url } }, script);
  const env = { CLAUDE_CONFIG_DIR: config };
  const store = join(config, "mcp-oauth.json");
  return {
    ...p,
    config,
    store,
    doc: () => JSON.parse(readFileSync(store, "utf8")),
    login: (...args: string[]) => runAgent(["mcp", "login", "fx", ...args], { cwd: p.dir, env: { ...env, BROWSER } }),
    logout: () => runAgent(["mcp", "logout", "fx"], { cwd: p.dir, env }),
    run: (prompt: string, args: string[] = []) => p.run(prompt, { args, env }),
  };
}

const echo = (word: string) => [reply(toolUse("mcp__fx__echo", { text: word })), reply(text(`said ${word}`))];

describe.skipIf(skip)("2026-07-28 authorization with real authorization servers", () => {
  test("DPoP: mcp login binds the token to a 0600 key, -p proves each request and answers both nonces, --debug shows no proof, mcp logout deletes the key", async () => {
    current = () => dpopAs;
    const p = oauthProject(echo("bound"));
    const login = await p.login("--debug");
    expect([login.code, login.stdout]).toEqual([0, 'Logged in to MCP server "fx"\n']);
    expect(login.stderr).toContain("oauth fx: DPoP-bound token obtained");
    const tokens = p.doc().issuers[dpopAs.issuer][fixture.url].tokens;
    expect(tokens.token_type).toBe("dpop");
    // The token request's proofs (the first one refused for its missing nonce) show nowhere either.
    for (const secret of [tokens.access_token, tokens.refresh_token]) expect(login.stderr).not.toContain(secret);
    expect(login.stderr).not.toMatch(/eyJ[\w-]+\.eyJ/);
    expect((await dpopAs.provider.AccessToken.find(tokens.access_token))?.jkt).toBeString();
    const keyDir = join(p.config, "mcp-oauth-dpop");
    const [keyFile] = readdirSync(keyDir);
    expect(statSync(join(keyDir, keyFile!)).mode & 0o777).toBe(0o600);
    expect(statSync(keyDir).mode & 0o777).toBe(0o700);

    proofs.length = 0;
    const r = await p.run("go", ["--debug"]);
    expect([r.code, r.stdout]).toEqual([0, "said bound\n"]);
    expect(toolResult(p.model.requests[1]!).content).toBe("bound");
    expect(r.stderr).toContain("oauth fx: the server asked for a DPoP nonce; sending again");
    // Every request had its own proof; none of them, nor the token, shows under --debug.
    expect(proofs.length).toBeGreaterThan(2);
    expect(new Set(proofs).size).toBe(proofs.length);
    for (const secret of [...proofs, tokens.access_token]) expect(r.stderr).not.toContain(secret);
    expect(r.stderr).not.toMatch(/eyJ[\w-]+\.eyJ/);

    const out = await p.logout();
    expect(out.code).toBe(0);
    expect(existsSync(join(keyDir, keyFile!))).toBe(false);
  }, 60_000);

  test("a version 1 token store keeps its login after the upgrade, and is written as version 2 at the next refresh", async () => {
    current = () => plainA;
    const p = oauthProject([...echo("kept"), ...echo("again")]);
    expect((await p.login()).code).toBe(0);
    // The file exactly as the previous release wrote it: entries keyed by server URL alone.
    const entry = p.doc().issuers[plainA.issuer][fixture.url];
    writeFileSync(p.store, JSON.stringify({ version: 1, servers: { [fixture.url]: entry } }, null, 2));
    const one = await p.run("go");
    expect([one.code, one.stdout, one.stderr]).toEqual([0, "said kept\n", ""]);
    expect(p.doc().version).toBe(1); // reading never rewrites it

    await plainA.expireAccessToken(entry.tokens.access_token);
    const two = await p.run("go");
    expect([two.code, two.stdout, two.stderr]).toEqual([0, "said again\n", ""]);
    const doc = p.doc();
    expect(doc.version).toBe(2);
    expect(doc.servers).toBeUndefined();
    expect(doc.issuers[plainA.issuer][fixture.url].client.client_id).toBe(entry.client.client_id);
  }, 60_000);

  test("the resource metadata names another authorization server: -p asks for a login, mcp login registers there, nothing of the old one is kept", async () => {
    current = () => plainA;
    const p = oauthProject(echo("moved"));
    expect((await p.login()).code).toBe(0);
    const before = p.doc().issuers[plainA.issuer][fixture.url];

    current = () => plainB;
    const headless = await p.run("go");
    expect(headless.code).toBe(0);
    expect(lines(headless.stderr)).toEqual(['MCP server "fx" needs authentication: run ./your_program.sh mcp login fx']);
    expect(p.doc().issuers).toEqual({});

    const login = await p.login();
    expect(login.code).toBe(0);
    const after = p.doc().issuers[plainB.issuer][fixture.url];
    expect(after.client.client_id).not.toBe(before.client.client_id);
    expect(after.client.issuer).toBe(plainB.issuer);
    // Registered as what it is (MCP 2026-07-28 client-registration, SEP-837): a native application with a loopback redirect.
    expect((await plainB.provider.Client.find(after.client.client_id))?.applicationType).toBe("native");
    expect(Object.keys(p.doc().issuers)).toEqual([plainB.issuer]);
  }, 60_000);
});
