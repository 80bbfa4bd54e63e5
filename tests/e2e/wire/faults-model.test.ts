/**
 * Faults on the model side (tests/support/model-server.ts): a 5xx as an `error` event mid-stream,
 * a connection reset mid-body, a body that is not JSON, a 429 with Retry-After and a 503. What
 * the user gets: a retry where the request can be sent again (the Messages API client's rule),
 * else one stderr line naming what broke and exit 1 in `-p`, and an error result with that line
 * in host mode (streamed). Never a crash's words ("undefined is not an object").
 */
import { describe, expect, test } from "bun:test";
import { reply, type Step, startModelServer, text } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null });
const HOST = ["--output-format", "stream-json", "--input-format", "stream-json", "--verbose"];

async function withModel<T>(first: Step, fn: (url: string, requests: () => number) => Promise<T>): Promise<T> {
  const model = startModelServer([first, reply(text("after retry"))]);
  try {
    return await fn(model.url, () => model.requests.length);
  } finally {
    model.stop();
  }
}

const broken = {
  "error-event": "error: the API answered with an error: Internal server error",
  malformed: "error: the API's reply is not valid JSON (Unexpected EOF)",
} as const;

describe("-p", () => {
  for (const [fault, line] of Object.entries(broken)) {
    test.concurrent(`${fault}: one line naming it, exit 1`, () =>
      withModel({ fault: fault as keyof typeof broken }, async (url, requests) => {
        const r = await runAgent(["-p", "go"], { cwd: tempDir(), model: url });
        expect(r).toEqual({ code: 1, stdout: "", stderr: `${line}\n` });
        expect(requests()).toBe(1);
      }));
  }

  for (const [label, step] of [
    ["a reset mid-body", { fault: "reset" }],
    ["429 with Retry-After: 1", { status: 429, error: { type: "rate_limit_error", message: "slow down" }, headers: { "retry-after": "1" } }],
    ["503", { status: 503, error: { type: "api_error", message: "unavailable" } }],
  ] as [string, Step][]) {
    test.concurrent(`${label}: sent again, answered, exit 0`, () =>
      withModel(step, async (url, requests) => {
        const r = await runAgent(["-p", "go"], { cwd: tempDir(), model: url });
        expect(r).toEqual({ code: 0, stdout: "after retry\n", stderr: "" });
        expect(requests()).toBe(2);
      }));
  }
});

describe("host mode (streamed)", () => {
  for (const fault of ["error-event", "malformed"] as const) {
    test.concurrent(`${fault} mid-stream: an error result saying what broke; the host goes on`, () =>
      withModel({ fault }, async (url) => {
        const r = await runAgent(HOST, { cwd: tempDir(), model: url, stdin: `${user("go")}\n` });
        expect(r.code).toBe(0);
        const results = r.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .filter((m) => m.type === "result");
        expect(results).toHaveLength(1);
        expect(results[0]).toMatchObject({ subtype: "error_during_execution", is_error: true });
        expect(results[0].errors).toHaveLength(1);
        expect(results[0].errors[0]).toMatch(/^the API/);
      }));
  }

  test.concurrent("a reset mid-stream: sent again, answered", () =>
    withModel({ fault: "reset" }, async (url) => {
      const r = await runAgent(HOST, { cwd: tempDir(), model: url, stdin: `${user("go")}\n` });
      const result = r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((m) => m.type === "result");
      expect(result).toMatchObject({ subtype: "success", result: "after retry" });
    }));
});
