/**
 * The built-in tool set as the agent offers it to the model.
 */
import { expect, test } from "bun:test";
import { builtinTools } from "../../../lib/tools/builtin.ts";

test("Read, Write, Edit, Bash, Glob, Grep, in that order", () => {
  expect(builtinTools().map((t) => t.name)).toEqual(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]);
});

test("only Read, Glob and Grep are read-only", () => {
  expect(
    builtinTools()
      .filter((t) => t.readOnly)
      .map((t) => t.name),
  ).toEqual(["Read", "Glob", "Grep"]);
});

test("every input schema is a JSON Schema object whose required fields are declared properties", () => {
  for (const tool of builtinTools()) {
    expect(tool.inputSchema.type).toBe("object");
    for (const key of tool.inputSchema.required ?? []) expect(Object.keys(tool.inputSchema.properties ?? {})).toContain(key);
    expect(tool.description.length).toBeGreaterThan(50);
  }
});

test("Claude Code's input field names", () => {
  const fields = Object.fromEntries(builtinTools().map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {})]));
  expect(fields).toEqual({
    Read: ["file_path", "offset", "limit", "pages"],
    Write: ["file_path", "content"],
    Edit: ["file_path", "old_string", "new_string", "replace_all"],
    Bash: ["command", "timeout", "description", "dangerouslyDisableSandbox"],
    Glob: ["pattern", "path"],
    Grep: ["pattern", "path", "glob", "output_mode", "-i", "-n", "-A", "-B", "-C", "head_limit", "type"],
  });
});
