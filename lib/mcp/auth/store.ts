/**
 * Tokens and client registrations, kept in `mcp-oauth.json` in the user's config folder
 * (`$CLAUDE_CONFIG_DIR` or `~/.claude`), keyed by the canonical server URL. Never Claude Code's
 * own `.credentials.json`. The file has mode 0600 (its folder 0700 when we create it), every
 * write goes to a temporary file renamed over the old one, and read-modify-write cycles run under
 * a lock file, re-reading first, so two agent processes never lose each other's rotated tokens.
 * A corrupt file is one warning and a fresh start, never a crash.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { withFileLock } from "../../files/locked-write.ts";

export const STORE_FILE = "mcp-oauth.json";

/** A registered (or configured) client, as the authorization server knows it. */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  /** The redirect URIs it was registered with: a new callback port means registering again. */
  redirect_uris?: string[];
  /** The issuer that registered it: another authorization server means registering again. */
  issuer?: string;
  /** "dcr" clients may be forgotten and registered again; configured and CIMD ones may not. */
  kind: "dcr" | "cimd" | "configured";
}

export interface StoredTokens {
  access_token: string;
  token_type?: string;
  refresh_token?: string;
  /** Epoch milliseconds; absent when the server gave no `expires_in`. */
  expires_at?: number;
  /** Granted scopes (space-separated), else the ones asked for. */
  scope?: string;
  issuer?: string;
}

export interface StoreEntry {
  client?: StoredClient;
  tokens?: StoredTokens;
}

interface StoreFile {
  version: 1;
  servers: Record<string, StoreEntry>;
}

export class TokenStore {
  private warned = false;

  /**
   * @param path the store file (see `defaultStorePath`).
   * @param warn receives the one warning line of a corrupt store.
   */
  constructor(
    readonly path: string,
    private readonly warn: (line: string) => void = (line) => process.stderr.write(line + "\n"),
  ) {}

  /** The entry for `key` as the file now holds it (read afresh: another process may have written). */
  get(key: string): StoreEntry | undefined {
    return this.load().servers[key];
  }

  /**
   * Read-modify-write under the lock: `fn` gets the current entry and returns the new one
   * (undefined deletes it). `fn` may do network I/O (a refresh), so concurrent processes wait
   * for it and then see its result. Returns what `fn` returned.
   */
  async update(key: string, fn: (entry: StoreEntry | undefined) => Promise<StoreEntry | undefined> | StoreEntry | undefined): Promise<StoreEntry | undefined> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    return withFileLock(this.path, async () => {
      const file = this.load();
      const next = await fn(file.servers[key]);
      if (next === undefined) delete file.servers[key];
      else file.servers[key] = next;
      this.write(file);
      return next;
    });
  }

  private load(): StoreFile {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
      throw new Error(`cannot read ${this.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    try {
      const doc = JSON.parse(text) as StoreFile;
      if (typeof doc === "object" && doc && typeof doc.servers === "object" && doc.servers && !Array.isArray(doc.servers)) return doc;
      throw new Error('not an object with "servers"');
    } catch (err) {
      if (!this.warned) {
        this.warned = true;
        this.warn(`${this.path}: corrupt (${(err as Error).message.split("\n")[0]}); starting afresh, servers will ask to log in again`);
      }
      return { version: 1, servers: {} };
    }
  }

  private write(file: StoreFile): void {
    const tmp = join(dirname(this.path), `.${STORE_FILE}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    try {
      writeFileSync(tmp, JSON.stringify(file, null, 2) + "\n", { mode: 0o600 });
      chmodSync(tmp, 0o600); // the mode above is subject to umask; an explicit chmod is not
      renameSync(tmp, this.path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }
}

/** `$CLAUDE_CONFIG_DIR/mcp-oauth.json`, else `~/.claude/mcp-oauth.json`. */
export function defaultStorePath(configDir: string): string {
  return join(configDir, STORE_FILE);
}
