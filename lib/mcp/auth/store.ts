/**
 * Tokens and client registrations, kept in `mcp-oauth.json` in the user's config folder
 * (`$CLAUDE_CONFIG_DIR` or `~/.claude`), keyed by the authorization server's `issuer` and, under
 * it, by the canonical server URL (MCP 2026-07-28 basic/authorization/client-registration,
 * "Authorization Server Binding", SEP-2352): credentials are never looked up across issuers, and
 * a server that names a new authorization server loses the old one's. Never Claude Code's own
 * `.credentials.json`. The file has mode 0600 (its folder 0700 when we create it), every write
 * goes to a temporary file renamed over the old one, and read-modify-write cycles run under a
 * lock file, re-reading first, so two agent processes never lose each other's rotated tokens.
 * Version 1 files (keyed by server URL alone, each entry naming its issuer) are read as version 2,
 * so an upgrade keeps every login; the next write stores version 2. A corrupt file is one warning
 * and a fresh start, never a crash.
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

/** A server's credentials and the issuer they are bound to. */
export interface BoundEntry {
  issuer: string;
  entry: StoreEntry;
}

interface StoreFile {
  version: 2;
  /** issuer → canonical server URL → credentials. */
  issuers: Record<string, Record<string, StoreEntry>>;
}

/** The layout before credentials were keyed by issuer. */
interface StoreFileV1 {
  version?: 1;
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

  /**
   * The credentials for server `key` and the issuer they belong to, as the file now holds them
   * (read afresh: another process may have written). Writes keep one issuer per server, so there
   * is at most one.
   */
  find(key: string): BoundEntry | undefined {
    for (const [issuer, servers] of Object.entries(this.load().issuers)) {
      const entry = servers[key];
      if (entry) return { issuer, entry };
    }
    return undefined;
  }

  /** The credentials for server `key` issued by `issuer`, never another issuer's. */
  get(issuer: string, key: string): StoreEntry | undefined {
    return this.load().issuers[issuer]?.[key];
  }

  /** True when some server's credentials (other than server `except`'s) come from `issuer`. */
  hasIssuer(issuer: string, except?: string): boolean {
    return Object.keys(this.load().issuers[issuer] ?? {}).some((key) => key !== except);
  }

  /**
   * Read-modify-write under the lock: `fn` gets server `key`'s current entry from `issuer` and
   * returns the new one (undefined deletes it). Storing an entry removes the server's entries
   * under every other issuer (SEP-2352: no credentials reused across authorization servers).
   * `fn` may do network I/O (a refresh), so concurrent processes wait for it and then see its
   * result. Returns what `fn` returned.
   */
  async update(
    issuer: string,
    key: string,
    fn: (entry: StoreEntry | undefined) => Promise<StoreEntry | undefined> | StoreEntry | undefined,
  ): Promise<StoreEntry | undefined> {
    return this.locked(async (file) => {
      const next = await fn(file.issuers[issuer]?.[key]);
      if (next === undefined) removeEntry(file, issuer, key);
      else {
        for (const other of Object.keys(file.issuers)) if (other !== issuer) removeEntry(file, other, key);
        file.issuers[issuer] = { ...file.issuers[issuer], [key]: next };
      }
      return next;
    });
  }

  /** Deletes server `key`'s credentials from every issuer. Resolves with the issuers that had some. */
  async remove(key: string): Promise<string[]> {
    return this.locked((file) => {
      const had = Object.keys(file.issuers).filter((issuer) => file.issuers[issuer]![key]);
      for (const issuer of had) removeEntry(file, issuer, key);
      return Promise.resolve(had);
    });
  }

  private async locked<T>(fn: (file: StoreFile) => Promise<T>): Promise<T> {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    return withFileLock(this.path, async () => {
      const file = this.load();
      const result = await fn(file);
      this.write(file);
      return result;
    });
  }

  private load(): StoreFile {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 2, issuers: {} };
      throw new Error(`cannot read ${this.path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    try {
      const doc = JSON.parse(text) as unknown;
      if (isRecord(doc) && doc.version === 2 && isRecord(doc.issuers)) return doc as unknown as StoreFile;
      if (isRecord(doc) && (doc.version === 1 || doc.version === undefined) && isRecord(doc.servers)) return fromV1(doc as unknown as StoreFileV1);
      throw new Error('not an object with "issuers"');
    } catch (err) {
      if (!this.warned) {
        this.warned = true;
        this.warn(`${this.path}: corrupt (${(err as Error).message.split("\n")[0]}); starting afresh, servers will ask to log in again`);
      }
      return { version: 2, issuers: {} };
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function removeEntry(file: StoreFile, issuer: string, key: string): void {
  const servers = file.issuers[issuer];
  if (!servers) return;
  delete servers[key];
  if (!Object.keys(servers).length) delete file.issuers[issuer];
}

/**
 * Version 1 → 2: each entry moves under the issuer its tokens (or else its registered client)
 * name; both were always written with one. An entry naming none holds nothing usable and is dropped.
 */
function fromV1(doc: StoreFileV1): StoreFile {
  const file: StoreFile = { version: 2, issuers: {} };
  for (const [key, entry] of Object.entries(doc.servers)) {
    const issuer = entry?.tokens?.issuer ?? entry?.client?.issuer;
    if (typeof issuer === "string" && issuer) file.issuers[issuer] = { ...file.issuers[issuer], [key]: entry };
  }
  return file;
}

/** `$CLAUDE_CONFIG_DIR/mcp-oauth.json`, else `~/.claude/mcp-oauth.json`. */
export function defaultStorePath(configDir: string): string {
  return join(configDir, STORE_FILE);
}
