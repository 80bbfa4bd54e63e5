/** describeFetchError: one readable line for a fetch that failed before any response (lib/mcp/transports/http-client.ts). */
import { describe, expect, test } from "bun:test";
import { describeFetchError } from "../../../../lib/mcp/transports/http-client.ts";

/** An error shaped like the ones Bun's fetch throws: a TypeError with a `code`. */
function bunError(code: string, message: string): Error {
  return Object.assign(new TypeError(message), { code });
}
const ADVICE = "For more information, pass `verbose: true` in the second argument to fetch()";

describe("describeFetchError", () => {
  test("TLS failures: the reason, the code, the origin", () => {
    expect(describeFetchError(bunError("CERT_HAS_EXPIRED", "certificate has expired"), "https://mcp.test/mcp")).toBe(
      "TLS: certificate has expired (CERT_HAS_EXPIRED) from https://mcp.test",
    );
    expect(
      describeFetchError(
        bunError("ERR_TLS_CERT_ALTNAME_INVALID", `ERR_TLS_CERT_ALTNAME_INVALID fetching "https://mcp.test/mcp". ${ADVICE}`),
        "https://mcp.test/mcp",
      ),
    ).toBe("TLS: the certificate is not valid for this host name (ERR_TLS_CERT_ALTNAME_INVALID) from https://mcp.test");
  });

  test("the runtime's advice to programmers is left out", () => {
    const line = describeFetchError(bunError("ECONNRESET", `The socket connection was closed unexpectedly. ${ADVICE}`), "http://mcp.test:8080/mcp");
    expect(line).toBe("cannot connect to http://mcp.test:8080: The socket connection was closed unexpectedly. (ECONNRESET)");
  });
});
