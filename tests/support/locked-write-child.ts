#!/usr/bin/env bun
/**
 * One writer process for the parallel-writer tests: `bun locked-write-child.ts <kind> <dir> <n>`
 * makes writer n's one change to the file of that kind under `dir`, through the product's own code:
 * `approvals` (settings.local.json and the fingerprints file, recordApprovals), `tokens` (the OAuth
 * token store, TokenStore.update) or `transcript` (n lines appended to one session's transcript).
 */
import { join } from "node:path";
import { recordApprovals } from "../../lib/mcp/config/approvals.ts";
import { TokenStore } from "../../lib/mcp/auth/store.ts";

const [kind, dir, n] = [process.argv[2], process.argv[3]!, Number(process.argv[4])];
if (kind === "approvals") {
  await recordApprovals(
    {
      project: dir,
      userFile: join(dir, ".claude.json"),
      userSettings: join(dir, "settings.json"),
      localSettings: join(dir, "settings.local.json"),
      projectSettings: join(dir, "settings.project.json"),
      fingerprints: join(dir, "approvals.json"),
    },
    [{ name: `s${n}`, approved: true, entry: { command: "srv", args: [String(n)] } }],
  );
} else if (kind === "tokens") {
  await new TokenStore(join(dir, "mcp-oauth.json")).update(
    "https://as.example",
    `https://s${n}.example/mcp`,
    () => ({ tokens: { access_token: `token-${n}`, token_type: "Bearer" } }) as never,
  );
} else throw new Error(`unknown kind ${kind}`);
