/**
 * Which era and revision one server speaks (MCP 2026-07-28, basic/versioning §Backward Compatibility,
 * basic/transports/stdio and streamable-http §Backward Compatibility). Two plans:
 * - default: the course's `initialize` first. A -32022 naming a revision we speak → that revision;
 *   any other JSON-RPC error → one `server/discover` probe before failing; an answer naming a modern
 *   revision → that revision (fall forward).
 * - discovery first (`MCP_PROTOCOL_NEGOTIATION=auto` or the entry's `protocolVersion`): `server/discover`
 *   first; a result → modern; -32022 → pick from `supported`; any other error or a timeout → `initialize`.
 * A refusal naming no revision we speak is one line with both lists, never a silent fallback.
 */
import { McpError } from "../protocol/errors.ts";
import { ErrorCode, MODERN_PROTOCOL_VERSIONS, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../protocol/protocol.ts";
import { isObject } from "../../shared/values.ts";

export type Era = "legacy" | "modern";

export type Outcome = { era: "legacy"; initialize: unknown } | { era: "modern"; version: string; discover: Record<string, unknown> };

export interface NegotiationPlan {
  /** `server/discover` before `initialize` (opted in). */
  discoverFirst: boolean;
  /** A probe's timeout (ms): min(the entry's timeout, MCP_TIMEOUT / 3). */
  probeTimeoutMs: number;
  /** False (`MCP_PROTOCOL_NEGOTIATION=legacy`): an initialize error is final, no `server/discover` probe. */
  probe?: boolean;
}

export interface NegotiationSteps {
  /** Sends the course's `initialize` frame; resolves with its result, rejects as a request does. */
  initialize(): Promise<unknown>;
  /** Sends `server/discover` at `version` within `timeoutMs`. */
  discover(version: string, timeoutMs: number): Promise<unknown>;
  /** Switches the transport (HTTP: sessionless 2026-07-28 POSTs, or back to the 2025 transports). */
  useEra(era: Era): Promise<void> | void;
  /** False once the connection has ended (the process exited): nothing is left to probe. */
  alive(): boolean;
  /** One line per step, for --debug. */
  note(line: string): void;
}

const SPOKEN = `this client speaks ${PROTOCOL_VERSION} and ${MODERN_PROTOCOL_VERSIONS.join(", ")}`;

/**
 * Runs `plan` with `steps`.
 * @throws the initialize failure unchanged (timeouts, exits, garbage, an error the probe did not
 *   overturn), or Error "speaks 2027-01-01 only; this client speaks 2025-11-25 and 2026-07-28".
 */
export async function negotiate(plan: NegotiationPlan, steps: NegotiationSteps): Promise<Outcome> {
  return plan.discoverFirst ? discoverFirst(plan, steps) : initializeFirst(plan, steps);
}

async function initializeFirst(plan: NegotiationPlan, steps: NegotiationSteps): Promise<Outcome> {
  let answer: unknown;
  try {
    answer = await steps.initialize();
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    const supported = supportedList(error);
    if (supported) {
      const modern = pickModern(supported);
      steps.note(`initialize refused with ${error.code}, supported: ${supported.join(", ")}`);
      if (!modern) throw unspoken(supported);
      return modernFrom(modern, plan, steps);
    }
    if (plan.probe === false) throw error;
    steps.note(`initialize failed (${error.message}); probing server/discover`);
    const probed = await probe(plan, steps, MODERN_PROTOCOL_VERSIONS[0]);
    if (probed) return probed;
    throw error;
  }
  const version = isObject(answer) ? answer.protocolVersion : undefined;
  const modern = typeof version === "string" ? pickModern([version]) : undefined;
  if (modern) {
    steps.note(`initialize answered with ${modern}: speaking it`);
    return modernFrom(modern, plan, steps);
  }
  steps.note(`initialize answered with ${String(version)}: the 2025 era`);
  return { era: "legacy", initialize: answer };
}

async function discoverFirst(plan: NegotiationPlan, steps: NegotiationSteps): Promise<Outcome> {
  const probed = await probe(plan, steps, MODERN_PROTOCOL_VERSIONS[0]);
  if (probed) return probed;
  steps.note("falling back to initialize");
  return { era: "legacy", initialize: await steps.initialize() };
}

/** One `server/discover`: the modern outcome, or undefined when the server is not modern (legacy, silent, garbage). */
async function probe(plan: NegotiationPlan, steps: NegotiationSteps, version: string): Promise<Outcome | undefined> {
  await steps.useEra("modern");
  try {
    const result = await steps.discover(version, plan.probeTimeoutMs);
    steps.note(`server/discover answered: ${version}`);
    return { era: "modern", version, discover: isObject(result) ? result : {} };
  } catch (error) {
    const supported = error instanceof McpError ? supportedList(error) : undefined;
    if (supported) {
      const modern = pickModern(supported);
      // Even the version we sent: a server may refuse a first request anyway (once; modernFrom does not loop).
      if (modern) return modernFrom(modern, plan, steps);
      if (!modern && !supported.some((v) => (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(v))) throw unspoken(supported);
    }
    // The process or connection is gone: no era to find, the failure is the start's.
    if (!steps.alive()) throw error;
    steps.note(`server/discover failed (${error instanceof Error ? error.message : String(error)}): not the modern era`);
    await steps.useEra("legacy");
    return undefined;
  }
}

/** `server/discover` at a revision the server named: its failure is the start's failure. */
async function modernFrom(version: string, plan: NegotiationPlan, steps: NegotiationSteps): Promise<Outcome> {
  await steps.useEra("modern");
  const result = await steps.discover(version, Math.max(plan.probeTimeoutMs, 1));
  steps.note(`server/discover answered: ${version}`);
  return { era: "modern", version, discover: isObject(result) ? result : {} };
}

/** `data.supported` of a -32022 (UnsupportedProtocolVersion), when it is a list of strings. */
function supportedList(error: McpError): string[] | undefined {
  if (error.code !== ErrorCode.UnsupportedProtocolVersion || !isObject(error.data)) return undefined;
  const list = error.data.supported;
  return Array.isArray(list) && list.every((v) => typeof v === "string") ? list : undefined;
}

function pickModern(versions: readonly string[]): string | undefined {
  return MODERN_PROTOCOL_VERSIONS.find((v) => versions.includes(v));
}

function unspoken(supported: string[]): Error {
  return new Error(`speaks ${supported.join(", ") || "no revision it names"} only; ${SPOKEN}`);
}
