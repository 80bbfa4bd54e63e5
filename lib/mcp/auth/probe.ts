/**
 * What `mcp login` asks first: the server's own challenge. An unauthenticated `initialize` POST
 * (basic/transports#streamable-http) that the server answers 401 carries the `WWW-Authenticate`
 * with `resource_metadata` and `scope`; discovery without it could miss a metadata document kept
 * at a custom URL.
 */
import { initializeRequest } from "../protocol/protocol.ts";
import { proxiedFetch } from "../../shared/proxy.ts";
import { bearerChallenge } from "./www-authenticate.ts";

export type ProbeResult = { status: "challenge"; challenge: Record<string, string> } | { status: "open" } | { status: "other"; code: number };

/** @throws Error `cannot reach <url>: <reason>` when the request fails. */
export async function probeChallenge(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<ProbeResult> {
  let res: Response;
  try {
    res = await proxiedFetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initializeRequest(0, {})),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    throw new Error(`cannot reach ${url}: ${(err as Error).message}`);
  }
  await res.body?.cancel().catch(() => {});
  if (res.status === 401) return { status: "challenge", challenge: bearerChallenge(res.headers.get("www-authenticate")) ?? {} };
  if (res.ok) return { status: "open" };
  return { status: "other", code: res.status };
}
