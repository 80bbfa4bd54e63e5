/**
 * The kind of each JSON-RPC message the Streamable HTTP transport POSTs: a request waits for its
 * reply on the POST, a notification or response only for the server's acceptance (MCP 2025-11-25,
 * basic/transports#sending-messages-to-the-server; JSON-RPC 2.0 §4, §5).
 */

export type Outgoing = { kind: "request"; id: string | number; method: string } | { kind: "notification"; method: string } | { kind: "response" };

/**
 * What kind of JSON-RPC message we are sending. `message` is our own serialisation
 * (`JSON.stringify` of one JSON-RPC object: valid JSON, no duplicate keys).
 *
 * The answer comes from the members before the first one that is not `jsonrpc`, `id` or
 * `method`, so a request carrying megabytes of `params` is not parsed just to be classified; only
 * when those leading members do not decide (e.g. `params` before `id`) is the whole message parsed.
 * A response is recognised by `result` or `error` with no `method` before it (a response has none).
 * @throws SyntaxError when the message must be parsed and is not JSON.
 */
export function classify(message: string): Outgoing {
  return fromHead(message) ?? fromMembers(JSON.parse(message) as Members);
}

interface Members {
  id?: string | number;
  method?: unknown;
}

function fromMembers(m: Members): Outgoing {
  if (typeof m.method === "string") return m.id === undefined ? { kind: "notification", method: m.method } : { kind: "request", id: m.id, method: m.method };
  return { kind: "response" };
}

// Sticky patterns, each applied at one position: an object's opening, a key, a scalar value, a separator.
const OPEN = /\s*\{/y;
const KEY = /\s*("(?:[^"\\]|\\.)*")\s*:\s*/y;
const SCALAR = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SEPARATOR = /\s*([,}])/y;

/** Reads the leading `jsonrpc`, `id` and `method` members; undefined when they do not decide. */
function fromHead(message: string): Outgoing | undefined {
  const members: Members = {};
  let at = end(OPEN, message, 0);
  while (at >= 0) {
    KEY.lastIndex = at;
    const key = KEY.exec(message);
    if (key === null) return undefined;
    const name = JSON.parse(key[1]!) as string;
    if (name !== "jsonrpc" && name !== "id" && name !== "method") {
      if ("method" in members && (typeof members.method !== "string" || "id" in members)) return fromMembers(members);
      if (!("method" in members) && (name === "result" || name === "error")) return { kind: "response" };
      return undefined;
    }
    const valueEnd = end(SCALAR, message, KEY.lastIndex);
    if (valueEnd < 0) return undefined;
    members[name as keyof Members] = JSON.parse(message.slice(KEY.lastIndex, valueEnd));
    at = end(SEPARATOR, message, valueEnd);
    if (at >= 0 && message[at - 1] === "}") return fromMembers(members); // every member seen
  }
  return undefined;
}

/** Where `pattern` (sticky) ends when it matches `text` at `at`, else -1. */
function end(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : -1;
}
