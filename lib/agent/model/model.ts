/**
 * The only file that touches @anthropic-ai/sdk (Messages API). The SDK is imported lazily (at
 * preload() or the first call), so runs that never call the model (--help, mcp, mcp-init) skip it.
 */
import type { AssistantReply, ModelRequest } from "../messages.ts";
import { withBreakpoints } from "./cache.ts";
import { StreamedUsage, type UsageMeter } from "./usage.ts";
import { proxyFor } from "../../shared/proxy.ts";
import { modelForAlias } from "./model-table.ts";

/** A family alias (`opus`, `sonnet[1m]`…) as the newest model id of that family; anything else as written. */
export function resolveAlias(model: string): string {
  const alias = /^([A-Za-z]+)(\[1m\])?$/.exec(model.trim());
  return (alias && modelForAlias(alias[1]!)) || model;
}

/** The SDK's own default, for choosing the proxy when ANTHROPIC_BASE_URL is not set. */
const DEFAULT_BASE_URL = "https://api.anthropic.com";

export const DEFAULT_MODEL = "claude-sonnet-4-6";
export const DEFAULT_MAX_TOKENS = 16000;

/** A model failure worth one clear stderr line: a missing or refused key, an unreachable endpoint, an API error. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ModelClient {
  readonly model: string;
  /** Total ms spent waiting on the API, for `duration_api_ms`. */
  readonly apiMs: number;
  /** Starts loading the SDK now, so the first create() does not wait for it. */
  preload(): void;
  /**
   * One Messages API call. With `onText` or `onEvent`, the request streams (SSE): text deltas and
   * the raw stream events (`message_start`, `content_block_delta`…) are passed as they arrive;
   * without, it is a plain JSON request. Retries are the SDK's (429, 5xx, 529).
   * @throws ModelError
   */
  create(
    req: ModelRequest,
    opts?: { onText?: (delta: string) => void; onEvent?: (event: { type: string }) => void; signal?: AbortSignal },
  ): Promise<AssistantReply>;
}

export interface ModelOptions {
  model: string;
  env?: Record<string, string | undefined>;
  /** Prompt-caching breakpoints on the last two messages (cache.ts); false for --no-cache. Default true. */
  cache?: boolean;
  /** Every reply's `usage` is recorded here, with the model id. */
  meter?: UsageMeter;
}

/**
 * Checks credentials up front so a missing key fails before any server starts.
 * @throws ModelError when neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set.
 */
export function createModelClient({ model: asked, env = process.env, cache = true, meter }: ModelOptions): ModelClient {
  // `--model opus`, ANTHROPIC_MODEL=opus, /model opus: an alias is resolved as the settings' `model` is, never sent as is.
  const model = resolveAlias(asked);
  const apiKey = env.ANTHROPIC_API_KEY || undefined;
  const authToken = apiKey ? undefined : env.ANTHROPIC_AUTH_TOKEN || undefined;
  if (!apiKey && !authToken) {
    throw new ModelError("no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)");
  }
  const baseURL = env.ANTHROPIC_BASE_URL || undefined;
  if (baseURL && !/^https?:$/.test(URL.parse(baseURL)?.protocol ?? "")) {
    throw new ModelError(`ANTHROPIC_BASE_URL is not an http(s) URL: "${baseURL}"`);
  }
  // Bun's fetch would send even a loopback base URL (a local gateway) through HTTP_PROXY: state the choice.
  const fetchOptions = { proxy: proxyFor(baseURL ?? DEFAULT_BASE_URL, env) } as Record<string, unknown>;
  let sdk: Promise<any> | undefined;
  const client = () => {
    sdk ??= import("@anthropic-ai/sdk").then(
      ({ default: Anthropic }) =>
        new Anthropic({ apiKey: apiKey ?? null, authToken: authToken ?? null, baseURL, maxRetries: 2, timeout: 600_000, fetchOptions }),
    );
    return sdk;
  };
  let apiMs = 0;
  return {
    model,
    preload() {
      client().catch(() => {}); // a failure surfaces at the first create(), not as an unhandled rejection
    },
    get apiMs() {
      return apiMs;
    },
    async create(req, opts = {}) {
      const anthropic = await client();
      const params = {
        model,
        max_tokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
        ...(req.system ? { system: req.system } : {}),
        messages: cache ? withBreakpoints(req.messages) : req.messages,
        ...(req.tools.length ? { tools: req.tools } : {}),
      };
      const started = performance.now();
      try {
        let reply: AssistantReply;
        if (!opts.onText && !opts.onEvent) {
          reply = (await anthropic.messages.create(params, { signal: opts.signal })) as AssistantReply;
        } else {
          const stream = anthropic.messages.stream(params, { signal: opts.signal });
          const billed = new StreamedUsage();
          if (opts.onText) stream.on("text", (delta: string) => opts.onText!(delta));
          stream.on("streamEvent", (event: { type: string }) => {
            billed.observe(event);
            opts.onEvent?.(event);
          });
          let broke: unknown;
          stream.on("error", (error: unknown) => (broke ??= error));
          try {
            reply = (await stream.finalMessage()) as AssistantReply;
            // A stream that broke off (an `error` event, data that is not JSON) must not pass for a reply.
            if (broke !== undefined) throw broke;
          } catch (err) {
            // An interrupted or broken stream was still billed for what it sent: count it.
            meter?.record(model, billed.usage);
            throw err;
          }
        }
        // A body cut short or not a message (a proxy's page, a stream ended early) is no reply to act on.
        const answered = reply as unknown as { type?: string; error?: { message?: string } } | undefined;
        if (answered?.type === "error") throw new ModelError(`the API answered with an error: ${answered.error?.message ?? "no message"}`);
        if (!Array.isArray(reply?.content))
          throw new ModelError(`the API's reply was not a complete message (${opts.onText || opts.onEvent ? "its event stream ended early" : "no content"})`);
        meter?.record(model, reply.usage);
        return reply;
      } catch (err) {
        throw await describeError(err, baseURL);
      } finally {
        apiMs += performance.now() - started;
      }
    },
  };
}

async function describeError(err: unknown, baseURL: string | undefined): Promise<Error> {
  const { APIError, APIConnectionError, APIUserAbortError } = await import("@anthropic-ai/sdk");
  if (err instanceof APIUserAbortError) return err;
  if (err instanceof APIConnectionError) {
    return new ModelError(`cannot reach the API at ${baseURL ?? "the default endpoint"}: ${err.cause instanceof Error ? err.cause.message : err.message}`);
  }
  if (err instanceof APIError && err.status) {
    const body = err.error as { error?: { message?: string } } | undefined;
    const detail = body?.error?.message ?? err.message;
    if (err.status === 401) return new ModelError(`API key refused (401): ${detail}`, 401);
    return new ModelError(`API error ${err.status}: ${detail}`, err.status);
  }
  // A body that is not JSON (cut short, a proxy's page): the SDK's parse error alone names nothing.
  // Still an unexpected error (its stack under --debug), but one that says whose JSON it was.
  if (err instanceof SyntaxError) return new Error(`the API's reply is not valid JSON (${err.message.replace(/^JSON Parse error: /, "")})`, { cause: err });
  return err instanceof Error ? err : new Error(String(err));
}

/** The model client, or one whose calls fail with the reason it could not be made (no key). */
export function optionalModel(model: string, settings: { cache: boolean; meter: UsageMeter }): ModelClient {
  try {
    return createModelClient({ model, ...settings });
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    const fail = () => Promise.reject(err);
    return { model: resolveAlias(model), apiMs: 0, preload: () => {}, create: fail };
  }
}
