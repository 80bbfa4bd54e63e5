import { describe, expect, test } from "bun:test";
import { fieldError, formFields } from "../../../../lib/mcp/protocol/elicitation.ts";
import { fieldQuestion, readAnswer, showValue } from "../../../../lib/cli/repl/elicitation-fields.ts";

const [name, age, score, status, verified, tags, email] = formFields({
  message: "m",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", description: "Who you are", default: "John Doe", maxLength: 20 },
      age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
      score: { type: "number" },
      status: {
        type: "string",
        oneOf: [
          { const: "on", title: "Active" },
          { const: "off", title: "Inactive" },
        ],
        default: "off",
      },
      verified: { type: "boolean", default: true },
      tags: { type: "array", items: { enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2, default: ["b"] },
      email: { type: "string", format: "email" },
    },
    required: ["name"],
  },
});

describe("elicitation fields as questions", () => {
  test("each kind's question names its type and limits, with the default pre-filled as typed", () => {
    expect(fieldQuestion(name!, "John Doe")).toEqual({
      prompt: "Name (text, at most 20 characters, required): ",
      body: ["    Who you are"],
      initial: "John Doe",
    });
    expect(fieldQuestion(age!, 30)).toMatchObject({ prompt: "age (whole number 0–150): ", initial: "30" });
    expect(fieldQuestion(score!, undefined)).toMatchObject({ prompt: "score (number): ", initial: "" });
    expect(fieldQuestion(status!, "off")).toEqual({ prompt: "status (number): ", body: ["      1. Active (on)", "      2. Inactive (off)"], initial: "2" });
    expect(fieldQuestion(verified!, true)).toMatchObject({ prompt: "verified (y/n): ", initial: "y" });
    expect(fieldQuestion(tags!, ["b"])).toMatchObject({ prompt: "tags (numbers, 1–2 choices): ", initial: "2" });
    expect(fieldQuestion(email!, undefined).prompt).toBe("email (text, email address): ");
  });

  test("pre-filled text reads back as the same value, so Enter keeps the default", () => {
    for (const [field, value] of [
      [name, "John Doe"],
      [age, 30],
      [status, "off"],
      [verified, false],
      [tags, ["a", "c"]],
    ] as const)
      expect(readAnswer(field!, fieldQuestion(field!, value as never).initial)).toEqual({ value: value as never });
  });

  test("typed answers: blank leaves out, numbers parse, choices by number, value or label", () => {
    expect(readAnswer(name!, "   ")).toEqual({ value: undefined });
    expect(readAnswer(name!, " Ada ")).toEqual({ value: " Ada " });
    expect(readAnswer(age!, "4.5")).toEqual({ value: 4.5 });
    expect(readAnswer(age!, "four")).toEqual({ error: "age must be a number" });
    expect(readAnswer(verified!, "No")).toEqual({ value: false });
    expect(readAnswer(verified!, "maybe")).toEqual({ error: "verified: answer y or n" });
    expect(readAnswer(status!, "1")).toEqual({ value: "on" });
    expect(readAnswer(status!, "inactive")).toEqual({ value: "off" });
    expect(readAnswer(status!, "3")).toEqual({ error: "status: choose a number from 1 to 2" });
    expect(readAnswer(tags!, "3, 1 3")).toEqual({ value: ["c", "a"] });
    expect(readAnswer(tags!, "1 x")).toEqual({ error: 'tags: "x" is not one of the choices (1 to 3)' });
  });

  test("what reads fine may still break the schema: fieldError has the last word", () => {
    const read = readAnswer(age!, "4.5") as { value: number };
    expect(fieldError(age!, read.value)).toBe("age must be a whole number");
    expect(fieldError(tags!, (readAnswer(tags!, "1 2 3") as { value: string[] }).value)).toBe("tags takes at most 2 choices");
  });

  test("the summary shows labels and yes/no", () => {
    expect(showValue(status!, "on", "label")).toBe("Active");
    expect(showValue(tags!, ["a", "c"], "label")).toBe("a, c");
    expect(showValue(verified!, true, "label")).toBe("yes");
  });
});
