/**
 * One definition per tool input: the schema the model sees and the parser that reads its calls
 * agree, for every built-in tool.
 */
import { describe, expect, test } from "bun:test";
import { toolInput } from "../../../lib/tools/define.ts";
import { builtinTools } from "../../../lib/tools/builtin.ts";
import { readTool } from "../../../lib/tools/read.ts";
import { ToolError } from "../../../lib/tools/tool-error.ts";

const INPUT = toolInput({
  path: { type: "string", required: true, description: "p" },
  mode: { type: "string", enum: ["a", "b"], description: "m" },
  offset: { type: "integer", minimum: 1, maximum: 10, description: "o" },
  all: { type: "boolean", default: true, description: "x" },
});

const refusal = (input: Record<string, unknown>) => {
  try {
    INPUT.parse(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return (error as Error).message;
  }
  throw new Error("parsed without an error");
};

describe("toolInput", () => {
  test("the schema lists the fields with their bounds, enum and default", () => {
    expect(INPUT.schema).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "p" },
        mode: { type: "string", enum: ["a", "b"], description: "m" },
        offset: { type: "integer", minimum: 1, maximum: 10, description: "o" },
        all: { type: "boolean", default: true, description: "x" },
      },
      required: ["path"],
      additionalProperties: false,
    });
  });

  test("the parser enforces what the schema declares", () => {
    expect(INPUT.parse({ path: "f" })).toEqual({ path: "f", mode: undefined, offset: undefined, all: true });
    expect(INPUT.parse({ path: "f", mode: "b", offset: "3", all: "false" })).toEqual({ path: "f", mode: "b", offset: 3, all: false });
    expect(INPUT.parse({ path: "f", offset: 99 }).offset).toBe(10);
    expect(refusal({})).toBe('Invalid input: "path" is required and must be a string');
    expect(refusal({ path: "f", offset: 0 })).toBe('Invalid input: "offset" must be an integer ≥ 1');
    expect(refusal({ path: "f", mode: "c" })).toBe('Invalid input: "mode" must be one of a, b');
  });

  test("every built-in tool declares whether it asks, and summarises its main field", () => {
    const asks = Object.fromEntries(builtinTools().map((t) => [t.name, t.asksPermission]));
    expect(asks).toEqual({ Read: false, Write: true, Edit: true, Bash: true, Glob: false, Grep: false });
    for (const t of builtinTools()) expect(t.summary).toBeFunction();
  });
});

test("Read's offset is 1-based in the parser as in the schema: 0 is refused, 1 is the first line", async () => {
  expect((readTool.inputSchema.properties as Record<string, { minimum?: number }>).offset!.minimum).toBe(1);
  await expect(readTool.run({ file_path: import.meta.path, offset: 0 }, { cwd: "/", signal: new AbortController().signal })).rejects.toThrow(
    'Invalid input: "offset" must be an integer ≥ 1',
  );
  const first = await readTool.run({ file_path: import.meta.path, offset: 1, limit: 1 }, { cwd: "/", signal: new AbortController().signal });
  expect(first.content).toStartWith("     1\t/**\n\n(Showing lines 1-1 of");
});
