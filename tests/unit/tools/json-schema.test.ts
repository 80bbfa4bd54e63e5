/**
 * json-schema.ts: drafts 7, 2019-09 and 2020-12 by `$schema`; mismatches named by path and rule;
 * invalid schemas and remote references refused at compile time.
 */
import { expect, test } from "bun:test";
import { compileSchema, SchemaError } from "../../../lib/tools/json-schema.ts";

test("a mismatch names each path and rule", async () => {
  const s = await compileSchema({ type: "object", properties: { a: { type: "array", items: { type: "integer" } } }, required: ["b"] });
  expect(s.check({ a: [1], b: 1 })).toBeUndefined();
  expect(s.check({ a: [1, "x"] })).toBe("root: must have required property 'b'; root.a.1: must be integer");
});

test("draft 7 tuples and 2020-12 prefixItems each follow their own draft", async () => {
  const d7 = await compileSchema({ type: "object", properties: { t: { items: [{ type: "string" }] } } });
  expect(d7.check({ t: [1] })).toContain("root.t.0");
  const d2020 = await compileSchema({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { t: { prefixItems: [{ type: "string" }] } },
  });
  expect(d2020.check({ t: [1] })).toContain("root.t.0");
});

test.each([
  [[], "a JSON object"],
  [{ type: "nope" }, "schema is invalid"],
  [{ $ref: "https://example.invalid/remote.json" }, "can't resolve reference"],
  [{ $schema: "http://json-schema.org/draft-04/schema#" }, "unsupported $schema"],
])("%j is refused", async (schema, words) => {
  const err = await compileSchema(schema).catch((e) => e);
  expect(err).toBeInstanceOf(SchemaError);
  expect(err.message).toContain(words);
});
