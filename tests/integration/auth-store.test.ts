/**
 * The token store on a real file system, with real concurrent processes.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TokenStore } from "../../lib/mcp/auth/store.ts";
import { BUN, ROOT, tempDir } from "../support/run.ts";

describe("token store", () => {
  test("mode 0600, folder 0700, nothing left beside it", async () => {
    const dir = join(tempDir(), "config");
    const store = new TokenStore(join(dir, "mcp-oauth.json"));
    await store.update("https://as", "https://a/mcp", () => ({ tokens: { access_token: "t1" } }));
    expect(statSync(join(dir, "mcp-oauth.json")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(["mcp-oauth.json"]);
    expect(store.get("https://as", "https://a/mcp")?.tokens?.access_token).toBe("t1");
    await store.update("https://as", "https://a/mcp", () => undefined);
    expect(store.get("https://as", "https://a/mcp")).toBeUndefined();
  });

  test("a corrupt file is one warning and a fresh start, then rewritten whole", async () => {
    const dir = tempDir();
    const path = join(dir, "mcp-oauth.json");
    writeFileSync(path, "{not json");
    const warnings: string[] = [];
    const store = new TokenStore(path, (l) => warnings.push(l));
    expect(store.get("https://as", "k")).toBeUndefined();
    expect(store.get("https://as", "k")).toBeUndefined();
    await store.update("https://as", "k", () => ({ tokens: { access_token: "fresh" } }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("mcp-oauth.json: corrupt");
    expect(JSON.parse(readFileSync(path, "utf8")).issuers["https://as"].k.tokens.access_token).toBe("fresh");
  });

  test("a version 1 file (keyed by server URL) is read under each entry's issuer, and written as version 2 at the next update", async () => {
    const path = join(tempDir(), "mcp-oauth.json");
    const v1 = {
      version: 1,
      servers: {
        "https://a/mcp": { client: { client_id: "c1", kind: "dcr", issuer: "https://as-1" }, tokens: { access_token: "t1", issuer: "https://as-1" } },
        "https://b/mcp": { client: { client_id: "c2", kind: "dcr", issuer: "https://as-2" } },
        "https://c/mcp": { tokens: { access_token: "orphan" } },
      },
    };
    writeFileSync(path, JSON.stringify(v1));
    const store = new TokenStore(path, () => {
      throw new Error("no warning expected");
    });
    expect(store.find("https://a/mcp")).toEqual({ issuer: "https://as-1", entry: v1.servers["https://a/mcp"] as never });
    expect(store.find("https://b/mcp")?.issuer).toBe("https://as-2");
    expect(store.find("https://c/mcp")).toBeUndefined();
    expect(JSON.parse(readFileSync(path, "utf8")).version).toBe(1);
    await store.update("https://as-2", "https://b/mcp", (e) => ({ ...e, tokens: { access_token: "t2" } }));
    const doc = JSON.parse(readFileSync(path, "utf8"));
    expect(doc.version).toBe(2);
    expect(Object.keys(doc.issuers).sort()).toEqual(["https://as-1", "https://as-2"]);
    expect(doc.issuers["https://as-1"]["https://a/mcp"].tokens.access_token).toBe("t1");
  });

  test("credentials are bound to one issuer: storing under another drops the old, remove names who had them", async () => {
    const store = new TokenStore(join(tempDir(), "mcp-oauth.json"));
    await store.update("https://as-1", "https://a/mcp", () => ({ tokens: { access_token: "old" } }));
    await store.update("https://as-1", "https://b/mcp", () => ({ tokens: { access_token: "other" } }));
    await store.update("https://as-2", "https://a/mcp", () => ({ tokens: { access_token: "new" } }));
    expect(store.get("https://as-1", "https://a/mcp")).toBeUndefined();
    expect(store.find("https://a/mcp")).toEqual({ issuer: "https://as-2", entry: { tokens: { access_token: "new" } } });
    expect(store.hasIssuer("https://as-1")).toBe(true);
    expect(await store.remove("https://a/mcp")).toEqual(["https://as-2"]);
    expect(store.hasIssuer("https://as-2")).toBe(false);
  });

  test("concurrent processes never lose each other's writes", async () => {
    const dir = tempDir();
    const path = join(dir, "mcp-oauth.json");
    const script = join(dir, "bump.ts");
    writeFileSync(
      script,
      `import { TokenStore } from ${JSON.stringify(join(ROOT, "lib/mcp/auth/store.ts"))};
const store = new TokenStore(${JSON.stringify(path)});
for (let i = 0; i < 10; i++) {
  await store.update("https://as", "k", async (e) => {
    const n = Number(e?.tokens?.access_token ?? 0);
    await Bun.sleep(1); // widen the read-modify-write window
    return { tokens: { access_token: String(n + 1) } };
  });
}`,
    );
    const procs = Array.from({ length: 4 }, () => Bun.spawn([BUN, script], { stdout: "ignore", stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(new TokenStore(path).get("https://as", "k")?.tokens?.access_token).toBe("40");
    expect(readdirSync(dir).sort()).toEqual(["bump.ts", "mcp-oauth.json"]);
  }, 30_000);
});
