/**
 * The OAuth HttpAuthProvider for one remote server (MCP 2025-11-25 basic/authorization): hands
 * the transport the stored access token (refreshing it first when it has expired), and on a 401
 * refreshes, or discovers, registers and obtains a new grant; on a 403 `insufficient_scope` steps
 * up with the union of the scopes (SA-21), at most MAX_ATTEMPTS authorizations for one scope set.
 * One operation at a time per server: concurrent 401s wait for the first one's outcome instead of
 * refreshing or logging in twice; the store's lock does the same across processes. The OAuth
 * machinery (oauth4webapi) is imported only when a token must be obtained or refreshed.
 */
import type * as oauth from "oauth4webapi";
import type { LoginInteraction } from "./authorization-code.ts";
import type { OAuthConfig } from "./oauth-block.ts";
import type { Discovery, Fetch } from "./discovery.ts";
import { GrantRefusedError, UnknownClientError } from "./errors.ts";
import type { GrantContext } from "./grants.ts";
import { AuthRequiredError, type ChallengedRequest, type HttpAuthProvider } from "./provider.ts";
import { proxiedFetch } from "../../shared/proxy.ts";
import { chooseScopes, splitScopes, unionScopes } from "./scope-choice.ts";
import type { StoreEntry, StoredClient, StoredTokens, TokenStore } from "./store.ts";
import { canonicalResource } from "./urls.ts";
import { bearerChallenge } from "./www-authenticate.ts";

/** Authorizations for one scope set before a 403 is taken as final. */
export const MAX_ATTEMPTS = 3;
/** A token this close to its expiry is refreshed before use. */
const EXPIRY_MARGIN_MS = 30_000;

export interface OAuthProviderOptions {
  /** The server's name in the config, for messages. */
  server: string;
  /** The MCP endpoint URL. */
  url: string;
  oauth: OAuthConfig;
  store: TokenStore;
  /** How a person logs in here; undefined (`-p`, no terminal and no $BROWSER) makes a needed login an AuthRequiredError. */
  interaction?: LoginInteraction;
  /** The command that logs in, for the needs-authentication line. */
  loginCommand?: string;
  /** Every OAuth request's fetch; by default one that picks the proxy as the MCP transports do (lib/shared/proxy.ts). */
  fetch?: Fetch;
  /** --debug lines: steps and URLs, never a token or a secret. */
  debug?: (line: string) => void;
}

/** Appended to a failed login whose endpoints were only guessed (discovery.ts `guessed`). */
export const NO_METADATA_HINT =
  'The server publishes no OAuth metadata, so the default endpoints of MCP 2025-03-26 were tried; if it takes a fixed token, set it in the entry\'s "headers" (e.g. "Authorization": "Bearer ${TOKEN}")';

/** The 401 of a server without OAuth metadata, outside a login: `mcp login` would only try guessed endpoints. */
export const NO_LOGIN_HINT =
  'the server publishes no OAuth metadata, so there is nothing to log in to; if it takes a fixed token, set it in the entry\'s "headers" (e.g. "Authorization": "Bearer ${TOKEN}")';

/** `MCP server "X" needs authentication: run ./your_program.sh mcp login X`. */
export function needsAuthenticationLine(server: string, loginCommand = `./your_program.sh mcp login ${server}`, why = ""): string {
  return `MCP server "${server}" needs authentication${why}: run ${loginCommand}`;
}

export class OAuthProvider implements HttpAuthProvider {
  /** The store key: the canonical server URL. */
  readonly key: string;
  private discovery?: Discovery;
  private discoveredFrom?: string;
  private busy?: Promise<boolean>;
  private readonly attempts = new Map<string, number>();
  private refreshRefused = false;

  constructor(private readonly opts: OAuthProviderOptions) {
    this.opts = { ...opts, fetch: opts.fetch ?? proxiedFetch };
    this.key = canonicalResource(opts.url);
  }

  async authorization(): Promise<string | undefined> {
    if (this.busy) await this.busy.catch(() => {});
    const tokens = this.opts.store.get(this.key)?.tokens;
    if (!tokens) return undefined;
    if (tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS < Date.now() && tokens.refresh_token) {
      await this.once(() => this.refreshTokens(tokens.access_token)).catch(() => false);
      const now = this.opts.store.get(this.key)?.tokens;
      return now ? `Bearer ${now.access_token}` : undefined;
    }
    return `Bearer ${tokens.access_token}`;
  }

  async onChallenge(response: Response, request: ChallengedRequest): Promise<boolean> {
    const challenge = bearerChallenge(response.headers.get("www-authenticate")) ?? {};
    if (response.status === 403) {
      if (challenge.error !== "insufficient_scope") return false;
      return this.once(() => this.stepUp(challenge));
    }
    if (response.status !== 401) return false;
    const sent = request.authorization;
    return this.once(async () => {
      const current = this.opts.store.get(this.key)?.tokens;
      // Another request (or process) already replaced the token this one carried.
      if (sent && current && sent !== `Bearer ${current.access_token}`) return true;
      if (current?.refresh_token && (await this.refreshTokens(current.access_token))) return true;
      return this.obtain(challenge, undefined);
    });
  }

  /**
   * Runs a login now (`mcp login`), whatever the stored state.
   * @param challenge the server's 401 parameters (see probe.ts), so discovery starts where the server points.
   * @throws as onChallenge does.
   */
  async login(challenge: Record<string, string> = {}): Promise<void> {
    await this.once(() => this.obtain(challenge, undefined, true));
  }

  /** Forgets this server's tokens and registered client. */
  async logout(): Promise<boolean> {
    let had = false;
    await this.opts.store.update(this.key, (entry) => {
      had = Boolean(entry);
      return undefined;
    });
    return had;
  }

  private async once(fn: () => Promise<boolean>): Promise<boolean> {
    if (this.busy) {
      // A 401 that raced the running operation: its outcome serves this request too.
      return this.busy.then(() => this.opts.store.get(this.key)?.tokens !== undefined).catch(() => false);
    }
    this.busy = fn();
    try {
      return await this.busy;
    } finally {
      this.busy = undefined;
    }
  }

  /**
   * True when neither the 401 nor the well-known URLs point to an authorization server (discovery
   * fell back to guessed endpoints): most often a server that takes a fixed token. A discovery
   * that fails is not taken for that: the login then says what went wrong.
   */
  private async publishesNoMetadata(challenge: Record<string, string>): Promise<boolean> {
    if (challenge.resource_metadata) return false;
    return this.getDiscovery(undefined).then(
      (d) => d.guessed === true,
      () => false,
    );
  }

  private async getDiscovery(resourceMetadata: string | undefined): Promise<Discovery> {
    if (this.discovery && (resourceMetadata === undefined || resourceMetadata === this.discoveredFrom)) return this.discovery;
    const { discover } = await import("./discovery.ts");
    this.discovery = await discover(this.opts.url, resourceMetadata, this.opts.fetch);
    this.discoveredFrom = resourceMetadata;
    this.opts.debug?.(`oauth ${this.opts.server}: authorization server ${this.discovery.authorizationServer.issuer} (${this.discovery.source})`);
    return this.discovery;
  }

  /** Refreshes unless another process already did (the store is re-read under its lock). True when a usable token is now stored. */
  private async refreshTokens(staleAccessToken: string): Promise<boolean> {
    let ok = false;
    await this.opts.store.update(this.key, async (entry) => {
      const tokens = entry?.tokens;
      if (!entry || !tokens) return entry;
      if (tokens.access_token !== staleAccessToken) {
        ok = true;
        return entry;
      }
      if (!tokens.refresh_token || !entry.client) return entry;
      try {
        const ctx = await this.grantContext(entry.client, undefined, tokens.issuer);
        const { refresh } = await import("./grants.ts");
        const fresh = await refresh(ctx, tokens);
        this.opts.debug?.(`oauth ${this.opts.server}: token refreshed`);
        ok = true;
        return { ...entry, tokens: fresh };
      } catch (err) {
        if (!(err instanceof GrantRefusedError)) throw err;
        // Spent or revoked: forget it, so that the next step is a login (never a reuse, SA-28).
        this.refreshRefused = true;
        this.opts.debug?.(`oauth ${this.opts.server}: ${err.message}`);
        return { ...entry, tokens: undefined };
      }
    });
    return ok;
  }

  private async stepUp(challenge: Record<string, string>): Promise<boolean> {
    const had = splitScopes(this.opts.store.get(this.key)?.tokens?.scope);
    return this.obtain(challenge, unionScopes(had, splitScopes(challenge.scope)));
  }

  /** A new grant: authorization code (a person), client credentials or cross-app access (nobody). */
  private async obtain(challenge: Record<string, string>, stepUpScopes: string[] | undefined, explicitLogin = false): Promise<boolean> {
    const { oauth: cfg, server } = this.opts;
    const person = cfg.grantType === "authorization_code";
    if (person && !this.opts.interaction) {
      if (!this.refreshRefused && (await this.publishesNoMetadata(challenge))) throw new Error(`${withoutQuery(this.opts.url)} answered 401: ${NO_LOGIN_HINT}`);
      const why = this.refreshRefused ? " (the saved login was refused; log in again)" : "";
      throw new AuthRequiredError(server, needsAuthenticationLine(server, this.opts.loginCommand, why));
    }
    const discovery = await this.getDiscovery(challenge.resource_metadata);
    const as = discovery.authorizationServer;
    // A step-up keeps what was configured and adds what the 403 asks for.
    const scopes = chooseScopes({
      configured: stepUpScopes ? undefined : cfg.scopes,
      challenge: stepUpScopes ? unionScopes(cfg.scopes, stepUpScopes).join(" ") : challenge.scope,
      resourceScopes: discovery.protectedResource?.scopes_supported,
      serverScopes: person ? as.scopes_supported : undefined,
    });
    const attemptKey = [...(scopes ?? [])].sort().join(" ");
    const attempt = (this.attempts.get(attemptKey) ?? 0) + 1;
    if (attempt > MAX_ATTEMPTS && !explicitLogin) {
      throw new Error(`MCP server "${server}" still refuses the token (insufficient_scope) after ${MAX_ATTEMPTS} authorizations for scope "${attemptKey}"`);
    }
    this.attempts.set(attemptKey, attempt);
    let tokens: StoredTokens;
    let client: StoredClient;
    if (!person) {
      const [{ configuredClient }, { clientCredentials, crossAppAccess }] = await Promise.all([import("./client-auth.ts"), import("./grants.ts")]);
      client = configuredClient(cfg, as)!;
      const ctx = await this.grantContext(client, discovery);
      tokens = cfg.grantType === "client_credentials" ? await clientCredentials(ctx, scopes) : await crossAppAccess(ctx, scopes);
    } else {
      ({ tokens, client } = await this.browserLogin(discovery, scopes));
    }
    await this.opts.store.update(this.key, (entry) => ({ ...entry, client: client.kind === "dcr" ? client : entry?.client, tokens }));
    this.refreshRefused = false;
    this.opts.debug?.(`oauth ${server}: token obtained${tokens.scope ? ` (scope "${tokens.scope}")` : ""}`);
    return true;
  }

  private async browserLogin(discovery: Discovery, scopes: string[] | undefined): Promise<{ tokens: StoredTokens; client: StoredClient }> {
    const { oauth: cfg, server } = this.opts;
    const as = discovery.authorizationServer;
    const [{ authorizeWithCode, checkPkceSupport }, { configuredClient, metadataDocumentClient }] = await Promise.all([
      import("./authorization-code.ts"),
      import("./client-auth.ts"),
    ]);
    // The 2025-03-26 defaults already assume S256 (that revision required PKCE).
    checkPkceSupport(as, cfg.assumeS256);
    const registered = this.opts.store.get(this.key)?.client?.redirect_uris?.[0];
    const lastPort = registered ? Number(new URL(registered).port) || undefined : undefined;
    const pending = await this.opts.interaction!.begin(server, cfg.callbackPort, lastPort);
    try {
      for (let registered = false; ; registered = true) {
        const client = configuredClient(cfg, as) ?? metadataDocumentClient(cfg, as) ?? (await this.registeredClient(as, pending.redirectUri, registered));
        try {
          const tokens = await authorizeWithCode(await this.grantContext(client, discovery), pending, scopes);
          return { tokens, client };
        } catch (err) {
          // A registration the server forgot: register again, once.
          if (!(err instanceof UnknownClientError) || client.kind !== "dcr" || registered) throw err;
          this.opts.debug?.(`oauth ${server}: client ${client.client_id} unknown to the server; registering again`);
        }
      }
    } catch (err) {
      // Most often a server that wants a fixed token and has no OAuth at all: say how to give it one.
      if (!discovery.guessed || !(err instanceof Error) || err instanceof AuthRequiredError) throw err;
      throw new Error(`${err.message}. ${NO_METADATA_HINT}`, { cause: err });
    } finally {
      pending.close();
    }
  }

  /** The stored dynamic registration when it fits this issuer and redirect URI, else a new one. */
  private async registeredClient(as: oauth.AuthorizationServer, redirectUri: string, forceNew: boolean): Promise<StoredClient> {
    const stored = this.opts.store.get(this.key)?.client;
    if (!forceNew && stored?.kind === "dcr" && stored.issuer === as.issuer && stored.redirect_uris?.includes(redirectUri)) return stored;
    const [{ registerClient }, { requestOptions }] = await Promise.all([import("./client-auth.ts"), import("./grants.ts")]);
    const client = await registerClient(as, redirectUri, requestOptions(this.opts.fetch as typeof fetch));
    this.opts.debug?.(`oauth ${this.opts.server}: registered client ${client.client_id}`);
    await this.opts.store.update(this.key, (entry: StoreEntry | undefined) => ({ ...entry, client }));
    return client;
  }

  private async grantContext(client: StoredClient, discovery?: Discovery, issuer?: string): Promise<GrantContext> {
    const d = discovery ?? (await this.getDiscovery(undefined));
    if (issuer && d.authorizationServer.issuer !== issuer)
      this.opts.debug?.(`oauth ${this.opts.server}: token issuer ${issuer} differs from ${d.authorizationServer.issuer}`);
    return { as: d.authorizationServer, client, cfg: this.opts.oauth, resource: d.resource, fetcher: this.opts.fetch as typeof fetch };
  }
}

/** The URL without its query and fragment, which may carry a key: for messages. */
function withoutQuery(url: string): string {
  const u = URL.parse(url);
  return u ? `${u.origin}${u.pathname}` : url;
}
