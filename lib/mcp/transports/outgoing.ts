/**
 * The kind of each JSON-RPC message the Streamable HTTP transport POSTs: a request waits for its
 * reply on the POST, a notification or response only for the server's acceptance.
 */

export type Outgoing = { kind: "request"; id: string | number; method: string } | { kind: "notification"; method: string } | { kind: "response" };

/** What kind of JSON-RPC message we are sending (our own serialisation, so parsing it is cheap and safe). */
export function classify(message: string): Outgoing {
  const m = JSON.parse(message) as { id?: string | number; method?: string };
  if (typeof m.method === "string") return m.id === undefined ? { kind: "notification", method: m.method } : { kind: "request", id: m.id, method: m.method };
  return { kind: "response" };
}
