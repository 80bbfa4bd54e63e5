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
