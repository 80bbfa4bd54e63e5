/**
 * The Agent SDK's `outputFormat: {type: "json_schema", schema}` through the real SDK driving our
 * executable (host mode): the result carries `structured_output` and its JSON as `result`; an
 * invalid schema ends the run before any model call. Slow (real processes): SKIP_SLOW=1 skips
 * them locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, toolUse, type ModelServer } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";
import { collect } from "../../support/agent-sdk.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
const TEST_TIMEOUT_MS = 60_000;
const SCHEMA = { type: "object", properties: { city: { type: "string" }, population: { type: "integer" } }, required: ["city"] };

let server: ModelServer | undefined;
afterEach(() => server?.stop());

function run(schema: Record<string, unknown>) {
  const env = { ...baseEnv(server!.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
  return query({
    prompt: "biggest city?",
    options: { pathToClaudeCodeExecutable: PROGRAM, cwd: tempDir(), env, outputFormat: { type: "json_schema", schema } },
  });
}

describe.skipIf(SKIP)("the Agent SDK's outputFormat", () => {
  test(
    "a mismatch is retried; the matching call is the result's structured_output",
    async () => {
      server = startModelServer([reply(toolUse("StructuredOutput", { city: 7 })), reply(toolUse("StructuredOutput", { city: "Tokyo", population: 37 }))]);
      const messages = await collect(run(SCHEMA));
      const result = messages.find((m) => m.type === "result") as any;
      expect(result).toMatchObject({ subtype: "success", is_error: false, structured_output: { city: "Tokyo", population: 37 } });
      expect(JSON.parse(result.result)).toEqual({ city: "Tokyo", population: 37 });
      expect(server.requests).toHaveLength(2);
      // Host mode offers the web tools by default (only -p waits to be asked).
      expect(server.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("WebFetch");
      expect(server.requests[0]!.body.tools.find((t: { name: string }) => t.name === "StructuredOutput").input_schema).toEqual(SCHEMA);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "an invalid schema ends the run before any model call",
    async () => {
      server = startModelServer([]);
      const failed = await collect(run({ type: "object", properties: { a: { type: 5 } } })).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failed).toBeInstanceOf(Error);
      expect(failed!.message).toContain("exited with code 2");
      expect(failed!.message).toContain("--json-schema: not a valid JSON Schema");
      expect(server.requests).toHaveLength(0);
    },
    TEST_TIMEOUT_MS,
  );
});
