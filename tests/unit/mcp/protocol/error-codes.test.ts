/** The MCP client's errors carry a code to switch on (errors.ts): the server's JSON-RPC code, or the client's own name. */
import { expect, test } from "bun:test";
import {
  ClientErrorCode,
  ConnectionClosedError,
  clientError,
  McpError,
  NotSentError,
  RequestCancelledError,
  RequestTimeoutError,
} from "../../../../lib/mcp/protocol/errors.ts";

test("each way a request ends has its code", () => {
  const codes = [
    new McpError(-32602, "bad params"),
    new RequestTimeoutError("tools/call", 1000, "fx"),
    new RequestCancelledError("tools/call", "fx"),
    new NotSentError("connection refused"),
    new ConnectionClosedError("fx exited"),
  ].map((e) => clientError(e)?.code);
  expect(codes).toEqual([-32602, "REQUEST_TIMEOUT", "REQUEST_CANCELLED", "NOT_SENT", "CONNECTION_CLOSED"]);
  expect(Object.values(ClientErrorCode)).toEqual(["REQUEST_TIMEOUT", "REQUEST_CANCELLED", "NOT_SENT", "CONNECTION_CLOSED"]);
});

test("anything else is not the client's", () => {
  expect(clientError(new Error("boom"))).toBeUndefined();
  expect(clientError({ code: "REQUEST_TIMEOUT" })).toBeUndefined();
  expect(clientError(undefined)).toBeUndefined();
});
