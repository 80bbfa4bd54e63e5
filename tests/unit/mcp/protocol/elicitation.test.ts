import { describe, expect, test } from "bun:test";
import { contentErrors, fieldError, formDefaults, formFields } from "../../../../lib/mcp/protocol/elicitation.ts";
import { declaredCapabilities, serveRequest } from "../../../../lib/mcp/session/features.ts";

// The conformance suite's SEP-1034 schema: one default per kind.
const SEP1034 = {
  message: "please accept with defaults",
  requestedSchema: {
    type: "object" as const,
    properties: {
      name: { type: "string", description: "User name", default: "John Doe" },
      age: { type: "integer", default: 30 },
      score: { type: "number", default: 95.5 },
      status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
      verified: { type: "boolean", default: true },
    },
    required: [],
  },
};

describe("elicitation form schema", () => {
  test("reads every restricted kind, in property order", () => {
    const fields = formFields(SEP1034);
    expect(fields.map((f) => `${f.key}:${f.kind}`)).toEqual(["name:string", "age:number", "score:number", "status:enum", "verified:boolean"]);
    expect(fields[1]).toMatchObject({ integer: true, default: 30 });
  });

  test("defaults are what an unchanged form sends (SEP-1034)", () => {
    expect(formDefaults(formFields(SEP1034))).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true });
  });

  test("titled and multi-select enums keep values apart from labels", () => {
    const [one, many] = formFields({
      message: "m",
      requestedSchema: {
        properties: {
          one: { type: "string", oneOf: [{ const: "a", title: "Apple" }] },
          many: {
            type: "array",
            items: {
              anyOf: [
                { const: "x", title: "Ex" },
                { const: "y", title: "Why" },
              ],
            },
            maxItems: 1,
            default: ["x"],
          },
        },
      },
    });
    expect(one).toMatchObject({ kind: "enum", options: [{ value: "a", label: "Apple" }] });
    expect(many).toMatchObject({ kind: "multi", default: ["x"] });
    expect(fieldError(many!, ["x", "y"])).toContain("at most 1");
    expect(fieldError(many!, ["z"])).toContain("among the choices");
  });

  test("a schema outside the restricted kinds is refused with Invalid params", () => {
    expect(() => formFields({ message: "m", requestedSchema: { properties: { o: { type: "object" } } } })).toThrow(/property "o"/);
  });

  test("answers are checked: required, bounds, integers, formats", () => {
    const fields = formFields({
      message: "m",
      requestedSchema: {
        properties: { mail: { type: "string", format: "email" }, n: { type: "integer", minimum: 1, maximum: 3 } },
        required: ["mail"],
      },
    });
    expect(contentErrors(fields, {})).toEqual(["mail is required"]);
    expect(contentErrors(fields, { mail: "nope", n: 2.5 })).toEqual(["mail must be an email address", "n must be a whole number"]);
    expect(contentErrors(fields, { mail: "a@b.c", n: 4 })).toEqual(["n must be at most 3"]);
    expect(contentErrors(fields, { mail: "a@b.c", n: 3 })).toEqual([]);
  });
});

describe("elicitation capability", () => {
  const handle = async () => ({ action: "decline" as const });
  test("form only, or form and URL; absent when not offered", () => {
    expect(declaredCapabilities({ elicitation: { url: false, handle } })).toEqual({ elicitation: { form: {} } });
    expect(declaredCapabilities({ roots: () => [], elicitation: { url: true, handle } })).toEqual({ roots: {}, elicitation: { form: {}, url: {} } });
    expect(declaredCapabilities({ roots: () => [] })).toEqual({ roots: {} });
  });

  test("a URL-mode request to a form-only client is refused before the handler", async () => {
    const ctx = { server: "s", signal: new AbortController().signal };
    const url = { mode: "url", message: "open", url: "https://example.com", elicitationId: "1" };
    await expect(serveRequest({ elicitation: { url: false, handle } }, "elicitation/create", url, ctx)).rejects.toThrow(/URL mode/);
    await expect(serveRequest({}, "elicitation/create", SEP1034, ctx)).rejects.toThrow(/not offered/);
    expect(await serveRequest({ elicitation: { url: true, handle } }, "elicitation/create", url, ctx)).toEqual({ action: "decline" });
  });
});
