/**
 * What this client offers servers (MCP 2025-11-25, client/roots, client/sampling, client/elicitation): one value that
 * decides both the `capabilities` declared in `initialize` and the handlers for the server's
 * requests, so the two can never disagree. A feature is offered exactly when its handler is set.
 */
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { ElicitParams, ElicitResult } from "../protocol/elicitation.ts";
import { McpError, methodNotFound } from "../protocol/errors.ts";
import { type ClientCapabilities, ErrorCode } from "../protocol/protocol.ts";

/** One root (client/roots#root): a `file://` URI and a display name. */
export interface Root {
  uri: string;
  name?: string;
}

/** Who is asking, and the abort signal that fires when the server cancels or the connection closes. */
export interface ServerRequestContext {
  server: string;
  signal: AbortSignal;
}

export interface ClientFeatures {
  /** Answers `roots/list`; declares `roots`. */
  roots?: () => Root[];
  /** Serves `sampling/createMessage` and resolves with its result; declares `sampling`. */
  sampling?: (params: unknown, ctx: ServerRequestContext) => Promise<unknown>;
  /**
   * Serves `elicitation/create`; declares `elicitation: {form: {}}`, plus `url: {}` when `url` is
   * true. A URL-mode request is refused before `handle` when `url` is false. `onComplete` hears a
   * server's `notifications/elicitation/complete` (URL mode: the out-of-band step is done); the
   * id is the server's and unchecked: one it never sent, or sent twice, is the listener's to ignore.
   */
  elicitation?: {
    url: boolean;
    handle: (params: ElicitParams, ctx: ServerRequestContext) => Promise<ElicitResult>;
    onComplete?: (server: string, elicitationId: string) => void;
  };
}

/** The `capabilities` of `initialize`, in wire order: one empty object per feature offered. */
export function declaredCapabilities(features: ClientFeatures): ClientCapabilities {
  const elicitation = features.elicitation && { elicitation: features.elicitation.url ? { form: {}, url: {} } : { form: {} } };
  return { ...(features.roots ? { roots: {} } : {}), ...(features.sampling ? { sampling: {} } : {}), ...elicitation };
}

/**
 * Answers one server request (`ping` is answered by the connection itself).
 * @throws McpError -32601 for a method we do not serve or a feature not offered; whatever the handler throws.
 */
export async function serveRequest(features: ClientFeatures, method: string, params: unknown, ctx: ServerRequestContext): Promise<unknown> {
  switch (method) {
    case "roots/list":
      if (!features.roots) throw new McpError(ErrorCode.MethodNotFound, "roots are not offered by this client");
      return { roots: features.roots() };
    case "sampling/createMessage":
      if (!features.sampling) throw new McpError(ErrorCode.MethodNotFound, "sampling is disabled in this client");
      return features.sampling(params, ctx);
    case "elicitation/create": {
      if (!features.elicitation) throw new McpError(ErrorCode.MethodNotFound, "elicitation is not offered by this client");
      const p = params as ElicitParams;
      if (p?.mode === "url" && !features.elicitation.url)
        throw new McpError(ErrorCode.InvalidParams, "elicitation/create: URL mode is not offered by this client (form mode only)");
      return features.elicitation.handle(p, ctx);
    }
    default:
      throw methodNotFound(method);
  }
}

/** Roots for a run: the working directory alone. */
export function workingDirectoryRoots(cwd: string): () => Root[] {
  const root = { uri: pathToFileURL(cwd).href, name: basename(cwd) || cwd };
  return () => [root];
}
