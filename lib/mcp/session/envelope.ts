/**
 * The per-request `_meta` envelope of MCP 2026-07-28 (basic/index §_meta; SEP-2575): every request
 * names its protocol version and the client's capabilities, and this client adds its `clientInfo`
 * (the course's value) and, when asked, a log level (server/utilities/logging).
 */
import { CLIENT_INFO, type ClientCapabilities } from "../protocol/protocol.ts";
import { isObject } from "../../shared/values.ts";

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** What every modern request declares; `logLevel` only when server log messages are wanted. */
export interface EnvelopeFields {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  logLevel?: string;
}

/** `params` with the envelope in front of any `_meta` it already has (a progress token stays). */
export function withEnvelope(params: Record<string, unknown> | undefined, fields: EnvelopeFields): Record<string, unknown> {
  const own = isObject(params?._meta) ? params._meta : {};
  const meta: Record<string, unknown> = {
    [META.protocolVersion]: fields.protocolVersion,
    [META.clientCapabilities]: fields.capabilities,
    [META.clientInfo]: { name: CLIENT_INFO.name, version: CLIENT_INFO.version },
    ...(fields.logLevel ? { [META.logLevel]: fields.logLevel } : {}),
    ...own,
  };
  return { ...params, _meta: meta };
}
