/**
 * The OAuth HttpAuthProvider for one remote server (MCP 2025-11-25 basic/authorization): hands
 * the transport the stored access token (refreshing it first when it has expired), and on a 401
 * refreshes, or discovers, registers and obtains a new grant; on a 403 `insufficient_scope` steps
 * up with the union of the scopes (SA-21), at most MAX_ATTEMPTS authorizations for one scope set.
 * A refused token sends discovery round again: when the resource metadata now names another
 * authorization server, the old one's credentials (and DPoP key) are dropped and the client
 * registers anew (SEP-2352). A DPoP-bound token goes out with a fresh proof per request, and a
 * server's `use_dpop_nonce` is answered once with its nonce (RFC 9449 §9; dpop-binding.ts).
 * One operation at a time per server: concurrent 401s wait for the first one's outcome instead of
 * refreshing or logging in twice; the store's lock does the same across processes. The OAuth
 * machinery (oauth4webapi) is imported only when a token must be obtained, refreshed or proven.
 */
import type { LoginInteraction } from "./authorization-code.ts";
import type { OAuthConfig } from "./oauth-block.ts";
import type { Discovery, Fetch } from "./discovery.ts";
import { FinalGrantError, GrantRefusedError } from "./errors.ts";
import type { GrantContext } from "./grants.ts";
import { DpopBinding } from "./dpop-binding.ts";
import { AuthRequiredError, type ChallengedRequest, type HttpAuthProvider, type RequestTarget } from "./provider.ts";
import { proxiedFetch } from "../../shared/proxy.ts";
import { chooseScopes, splitScopes, unionScopes } from "./scope-choice.ts";
import type { BoundEntry, StoredClient, StoredTokens, TokenStore } from "./store.ts";
import { canonicalResource } from "./urls.ts";
import { asksForDpopNonce, authChallenge } from "./www-authenticate.ts";
import { commandName } from "../../shared/command-name.ts";

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
  /** --debug lines: steps and URLs, never a token, a secret, a DPoP proof or an assertion. */
  debug?: (line: string) => void;
}

/** The 401 of a server without OAuth metadata, outside a login: `mcp login` would only try guessed endpoints. */
export const NO_LOGIN_HINT =
  'the server publishes no OAuth metadata, so there is nothing to log in to; if it takes a fixed token, set it in the entry\'s "headers" (e.g. "Authorization": "Bearer ${TOKEN}")';

/** `MCP server "X" needs authentication: run ./your_program.sh mcp login X`. */
export function needsAuthenticationLine(server: string, loginCommand = `${commandName()} mcp login ${server}`, why = ""): string {
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
  private readonly dpop: DpopBinding;
  /** A jwt-bearer refusal stands for the rest of this run (SEP-1933: no retry). */
  private finalRefusal?: Error;

  constructor(private readonly opts: OAuthProviderOptions) {
    this.opts = { ...opts, fetch: opts.fetch ?? proxiedFetch };
    this.key = canonicalResource(opts.url);
    this.dpop = new DpopBinding(opts.store);
  }

  async headers(request: RequestTarget): Promise<Record<string, string>> {
    if (this.busy) await this.busy.catch(() => {});
    let bound = this.current();
    let tokens = bound?.entry.tokens;
    if (!bound || !tokens) return {};
    if (tokens.expires_at !== undefined && tokens.expires_at - EXPIRY_MARGIN_MS < Date.now()) {
      if (tokens.refresh_token) {
        const stale = tokens.access_token;
        await this.once(() => this.refreshTokens(bound!.issuer, stale)).catch(() => false);
        bound = this.current();
        tokens = bound?.entry.tokens;
        if (!bound || !tokens) return {};
      } else if (tokens.expires_at <= Date.now()) return {}; // never sent past its expiry: the 401 brings a new one
    }
    if (tokens.token_type?.toLowerCase() !== "dpop") return { Authorization: `Bearer ${tokens.access_token}` };
    return this.dpop.headers(bound.issuer, request.method, request.url, tokens.access_token);
  }

  async onChallenge(response: Response, request: ChallengedRequest): Promise<boolean> {
    const header = response.headers.get("www-authenticate");
    const challenge = authChallenge(header) ?? {};
    if (response.status === 403) {
      if (challenge.error !== "insufficient_scope") return false;
      return this.once(() => this.stepUp(challenge));
    }
    if (response.status !== 401) return false;
    if (asksForDpopNonce(header)) return this.answerNonce(response, request.url);
    const sent = request.authorization?.replace(/^\S+\s+/, "");
    return this.once(async () => {
      const before = this.current();
      const current = before?.entry.tokens;
      // Another request (or process) already replaced the token this one carried.
      if (sent && current && sent !== current.access_token) return true;
      // A refused token: the server may have moved to another authorization server (SEP-2352).
      if (current) this.discovery = undefined;
      const issuer = (await this.getDiscovery(challenge.resource_metadata)).authorizationServer.issuer;
      if (before && before.issuer !== issuer) await this.forgetIssuer(before.issuer, issuer);
      else if (current?.refresh_token && (await this.refreshTokens(issuer, current.access_token))) return true;
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

  /** Forgets this server's tokens, registered client and, unless another server's login uses it, its authorization server's DPoP key. */
  async logout(): Promise<boolean> {
    const had = await this.opts.store.remove(this.key);
    for (const issuer of had) await this.dpop.dropUnlessShared(issuer);
    return had.length > 0;
  }

  /** The stored credentials: those of the issuer discovered in this run, else whichever issuer holds them. */
  private current(): BoundEntry | undefined {
    const issuer = this.discovery?.authorizationServer.issuer;
    if (!issuer) return this.opts.store.find(this.key);
    const entry = this.opts.store.get(issuer, this.key);
    return entry ? { issuer, entry } : undefined;
  }

  /** RFC 9449 §9: the server wants its nonce in the proof; true (send again) unless it is the nonce just sent. */
  private async answerNonce(response: Response, url: string): Promise<boolean> {
    const bound = this.current();
    if (bound?.entry.tokens?.token_type !== "dpop" || !(await this.dpop.answerNonce(response, url, bound.issuer))) return false;
    this.opts.debug?.(`oauth ${this.opts.server}: the server asked for a DPoP nonce; sending again`);
    return true;
  }

  /** SEP-2352: the server now names `next`; nothing obtained from `previous` is used again. */
  private async forgetIssuer(previous: string, next: string): Promise<void> {
    this.opts.debug?.(`oauth ${this.opts.server}: authorization server changed from ${previous} to ${next}; its credentials are dropped`);
    await this.opts.store.remove(this.key);
    await this.dpop.dropUnlessShared(previous);
  }

  private async once(fn: () => Promise<boolean>): Promise<boolean> {
    if (this.busy) {
      // A 401 that raced the running operation: its outcome serves this request too.
      return this.busy.then(() => this.current()?.entry.tokens !== undefined).catch(() => false);
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
  private async refreshTokens(issuer: string, staleAccessToken: string): Promise<boolean> {
    let ok = false;
    await this.opts.store.update(issuer, this.key, async (entry) => {
      const tokens = entry?.tokens;
      if (!entry || !tokens) return entry;
      if (tokens.access_token !== staleAccessToken) {
        ok = true;
        return entry;
      }
      if (!tokens.refresh_token || !entry.client) return entry;
      try {
        const ctx = await this.grantContext(entry.client);
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
    const had = splitScopes(this.current()?.entry.tokens?.scope);
    return this.obtain(challenge, unionScopes(had, splitScopes(challenge.scope)));
  }

  /** A new grant: authorization code (a person), or client credentials, cross-app access or workload identity (nobody). */
  private async obtain(challenge: Record<string, string>, stepUpScopes: string[] | undefined, explicitLogin = false): Promise<boolean> {
    const { oauth: cfg, server } = this.opts;
    const person = cfg.grantType === "authorization_code";
    if (person && !this.opts.interaction) {
      if (!this.refreshRefused && (await this.publishesNoMetadata(challenge))) throw new Error(`${withoutQuery(this.opts.url)} answered 401: ${NO_LOGIN_HINT}`);
      const why = this.refreshRefused ? " (the saved login was refused; log in again)" : "";
      throw new AuthRequiredError(server, needsAuthenticationLine(server, this.opts.loginCommand, why));
    }
    if (this.finalRefusal && !explicitLogin) throw this.finalRefusal;
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
      const { unattendedClient, unattendedGrant } = await import("./unattended.ts");
      client = unattendedClient(cfg, as);
      try {
        tokens = await unattendedGrant(await this.grantContext(client, discovery), scopes);
      } catch (err) {
        if (err instanceof FinalGrantError) this.finalRefusal = err;
        throw err;
      }
    } else {
      const { interactiveLogin } = await import("./interactive-login.ts");
      ({ tokens, client } = await interactiveLogin(
        {
          ...this.opts,
          interaction: this.opts.interaction!,
          key: this.key,
          grantContext: (c, d) => this.grantContext(c, d),
          retireKey: (issuer) => this.dpop.dropUnlessShared(issuer, this.key),
        },
        discovery,
        scopes,
      ));
    }
    await this.opts.store.update(as.issuer, this.key, (entry) => ({ ...entry, client: client.kind === "dcr" ? client : entry?.client, tokens }));
    this.refreshRefused = false;
    this.opts.debug?.(`oauth ${server}: ${tokens.token_type === "dpop" ? "DPoP-bound " : ""}token obtained${tokens.scope ? ` (scope "${tokens.scope}")` : ""}`);
    return true;
  }

  /** The context of a token request; with the issuer's DPoP handle when its metadata offers DPoP (RFC 9449 §5.1). */
  private async grantContext(client: StoredClient, discovery?: Discovery): Promise<GrantContext> {
    const d = discovery ?? (await this.getDiscovery(undefined));
    const as = d.authorizationServer;
    const dpop = await this.dpop.forTokenRequest(as);
    return { as, client, cfg: this.opts.oauth, resource: d.resource, fetcher: this.opts.fetch as typeof fetch, dpop };
  }
}

/** The URL without its query and fragment, which may carry a key: for messages. */
function withoutQuery(url: string): string {
  const u = URL.parse(url);
  return u ? `${u.origin}${u.pathname}` : url;
}
