/**
 * Edit: exact string replacement in a file, keeping its encoding, BOM, line endings and mode.
 */
import { readFileSync, statSync } from "node:fs";
import { replaceInText } from "./edit-text.ts";
import { summarizeField, toolInput } from "./define.ts";
import { errnoCode, resolvePath } from "./input.ts";
import { canEncode, decodeText, encodeText, encodingLabel } from "../files/text-file.ts";
import type { Tool } from "./tool.ts";
import { ToolError } from "./tool-error.ts";
import { writeKeepingMode } from "./write.ts";

const INPUT = toolInput({
  file_path: { type: "string", required: true, description: "Path of the file to modify (absolute, or relative to the working directory)" },
  old_string: { type: "string", required: true, description: "The exact text to replace" },
  new_string: { type: "string", required: true, description: "The text to replace it with (must differ from old_string)" },
  replace_all: { type: "boolean", default: false, description: "Replace every occurrence of old_string" },
});

export const editTool: Tool = {
  name: "Edit",
  description: [
    "Performs an exact string replacement in a file.",
    "- Read the file first, and copy old_string exactly from it (without the line-number prefix Read adds): indentation, quotes and other characters must match.",
    "- Fails when old_string is not found, or when it occurs more than once and replace_all is not set: add surrounding lines to make it unique, or set replace_all to rename every occurrence.",
    "- Line endings are handled for you: an old_string written with \\n matches a CRLF file, and the file keeps its own line endings, encoding and permissions.",
    "- An empty old_string creates a new file (or fills an empty one) with new_string; it is refused on a file that has content.",
    "- Refused when the file changed on disk since you last Read it (the user or another program edited it): Read it again first.",
  ].join("\n"),
  inputSchema: INPUT.schema,
  asksPermission: true,
  summary: summarizeField("file_path", "path"),
  async run(input, ctx) {
    const args = INPUT.parse(input);
    const path = resolvePath(ctx.cwd, args.file_path);
    const { old_string: oldString, new_string: newString, replace_all: replaceAll } = args;
    if (oldString === newString) throw new ToolError("old_string and new_string are identical; there is nothing to change");
    ctx.toolState?.files.assertUnchanged(path);

    const bytes = readExisting(path);
    if (oldString === "") {
      if (bytes && bytes.length > 0) {
        throw new ToolError(`old_string is empty but ${path} already has content; give the text to replace, or use Write to replace the whole file`);
      }
      writeKeepingMode(path, Buffer.from(newString, "utf8"), ctx.fileChange);
      ctx.toolState?.files.wrote(path);
      return { content: `${bytes ? "Wrote" : "Created"} ${path}` };
    }
    if (!bytes) throw new ToolError(`File does not exist: ${path}`);

    const decoded = decodeText(bytes);
    if (!decoded) throw new ToolError(`${path} is a binary file (${bytes.length} bytes); Edit only changes text files`);
    const label = encodingLabel(decoded);
    // Refuse rather than risk rewriting bytes we could not decode faithfully.
    if (!Buffer.from(encodeText(decoded.text, decoded.encoding, decoded.bom)).equals(bytes)) {
      throw new ToolError(`${path} cannot be edited safely: its bytes do not round-trip through ${label}`);
    }
    if (!canEncode(newString, decoded.encoding)) {
      throw new ToolError(`${path} is ${label}, not UTF-8, and new_string has characters ${label} cannot store; not rewriting the file`);
    }

    const result = replaceInText(decoded.text, oldString, newString, replaceAll);
    if (!result.ok) {
      if (result.count === 0) {
        const hint = canEncode(oldString, decoded.encoding) ? "" : ` (the file is ${label}, which cannot contain some characters of old_string)`;
        throw new ToolError(`old_string was not found in ${path}${hint}; Read the file and copy the text exactly`);
      }
      throw new ToolError(
        `old_string matches ${result.count} times in ${path}; add surrounding context to make it unique, or set replace_all to true to replace all ${result.count}`,
      );
    }
    writeKeepingMode(path, encodeText(result.text, decoded.encoding, decoded.bom), ctx.fileChange);
    ctx.toolState?.files.wrote(path);
    const note = decoded.encoding === "utf-8" && !decoded.bom ? "" : ` (kept as ${label})`;
    return { content: `Edited ${path}: replaced ${result.count} occurrence${result.count === 1 ? "" : "s"}${note}` };
  },
};

/** The file's bytes, or null when it does not exist. Throws ToolError for a directory or a read failure. */
function readExisting(path: string): Buffer | null {
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) throw new ToolError(`${path} is a directory, not a file`);
    if (!stats.isFile()) throw new ToolError(`${path} is not a regular file`);
    return readFileSync(path);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (errnoCode(error) === "ENOENT") return null;
    throw new ToolError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}
