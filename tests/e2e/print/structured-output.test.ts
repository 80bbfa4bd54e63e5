/**
 * `-p --json-schema` through the real program and a scripted model: the StructuredOutput tool the
 * model is offered, a matching call ending the run in each output format, a mismatch told to the
 * model (path and rule) and retried, the one reminder after a text answer, the retry limit, and a
 * bad schema refused as a usage error before any model call.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

const SCHEMA = { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name"] };

let model: ModelServer | undefined;
afterEach(() => {
  model?.stop();
  model = undefined;
});

function run(script: Step[], args: string[], env: Record<string, string> = {}) {
  model = startModelServer(script);
  return runAgent(["-p", "who?", ...args], { cwd: tempDir(), model: model.url, env });
}

/** The tool_result blocks of a recorded request's last message. */
function lastResults(i: number): { content: unknown; is_error?: boolean }[] {
  const messages = model!.requests[i]!.body.messages;
  return messages.at(-1).content.filter((b: { type: string }) => b.type === "tool_result");
}

describe("--json-schema", () => {
  test("offers StructuredOutput with the schema verbatim; a matching call ends the run (json)", async () => {
    const r = await run([reply(toolUse("StructuredOutput", { name: "Alice", age: 3 }))], ["--json-schema", JSON.stringify(SCHEMA), "--output-format", "json"]);
    expect(r.code).toBe(0);
    const tool = model!.requests[0]!.body.tools.find((t: { name: string }) => t.name === "StructuredOutput");
    expect(tool.input_schema).toEqual(SCHEMA);
    // No further model call after the matching one.
    expect(model!.requests).toHaveLength(1);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, structured_output: { name: "Alice", age: 3 } });
    expect(JSON.parse(result.result)).toEqual({ name: "Alice", age: 3 });
  });

  test("text format prints the value's JSON and nothing else", async () => {
    const r = await run([reply(text("here it is"), toolUse("StructuredOutput", { name: "Bob" }))], ["--json-schema", JSON.stringify(SCHEMA)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ name: "Bob" });
  });

  test("stream-json's result carries structured_output; a schema file works as well as JSON text", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "schema.json"), JSON.stringify(SCHEMA));
    model = startModelServer([reply(toolUse("StructuredOutput", { name: "Cy" }))]);
    const r = await runAgent(["-p", "who?", "--json-schema", join(dir, "schema.json"), "--output-format", "stream-json", "--verbose"], {
      cwd: dir,
      model: model.url,
    });
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({ type: "result", subtype: "success", structured_output: { name: "Cy" }, result: '{"name":"Cy"}' });
  });

  test("a mismatch is an error result naming the path and the rule, and the model tries again", async () => {
    const r = await run(
      [reply(toolUse("StructuredOutput", { age: "x" })), reply(toolUse("StructuredOutput", { name: "Dee", age: 4 }))],
      ["--json-schema", JSON.stringify(SCHEMA), "--output-format", "json"],
    );
    expect(r.code).toBe(0);
    const [result] = lastResults(1);
    expect(result!.is_error).toBe(true);
    expect(String(result!.content)).toContain("root: must have required property 'name'");
    expect(String(result!.content)).toContain("root.age: must be integer");
    expect(JSON.parse(r.stdout).structured_output).toEqual({ name: "Dee", age: 4 });
  });

  test("a text answer gets one reminder; text again ends in success with structured_output null", async () => {
    const r = await run([reply(text("plain answer")), reply(text("still plain"))], ["--json-schema", JSON.stringify(SCHEMA), "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(model!.requests).toHaveLength(2);
    const reminder = model!.requests[1]!.body.messages.at(-1);
    expect(reminder.role).toBe("user");
    expect(JSON.stringify(reminder.content)).toContain("StructuredOutput");
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "success", is_error: false, result: "still plain", structured_output: null });
  });

  test("MAX_STRUCTURED_OUTPUT_RETRIES invalid calls end the run: error_max_structured_output_retries, exit 1", async () => {
    const bad = () => reply(toolUse("StructuredOutput", { nope: 1 }));
    const r = await run([bad(), bad(), bad()], ["--json-schema", JSON.stringify(SCHEMA), "--output-format", "json"], { MAX_STRUCTURED_OUTPUT_RETRIES: "2" });
    expect(r.code).toBe(1);
    expect(model!.requests).toHaveLength(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "error_max_structured_output_retries", is_error: true });
  });

  test.each([
    ["not JSON", "{nope", "not valid JSON"],
    ["not a schema", JSON.stringify({ type: "object", properties: { a: { type: "strng" } } }), "not a valid JSON Schema"],
    [
      "a remote $ref (never fetched)",
      JSON.stringify({ type: "object", properties: { a: { $ref: "https://example.invalid/s.json" } } }),
      "can't resolve reference",
    ],
    ["a top level that is not an object", JSON.stringify({ type: "array" }), '"type": "object"'],
    ["a missing file", "no-such-schema.json", "no such file"],
  ])("%s is one usage line and exit 2, before any model call", async (_what, value, words) => {
    const r = await run([reply(text("unused"))], ["--json-schema", value]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toStartWith("error: --json-schema");
    expect(r.stderr).toContain(words);
    expect(model!.requests).toHaveLength(0);
  });

  test("a 2020-12 schema is checked by its own draft's rules", async () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }] } },
    };
    const r = await run(
      [reply(toolUse("StructuredOutput", { pair: [1, 2] })), reply(toolUse("StructuredOutput", { pair: ["a", 2] }))],
      ["--json-schema", JSON.stringify(schema), "--output-format", "json"],
    );
    expect(r.code).toBe(0);
    expect(String(lastResults(1)[0]!.content)).toContain("root.pair.0: must be string");
    expect(JSON.parse(r.stdout).structured_output).toEqual({ pair: ["a", 2] });
  });
});
