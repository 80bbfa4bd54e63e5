/**
 * Write: creates or overwrites a whole file.
 */
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { summarizeField, toolInput } from "./define.ts";
import { errnoCode, resolvePath } from "./input.ts";
import type { FileChangeHook, Tool } from "./tool.ts";
import { ToolError } from "./tool-error.ts";

const INPUT = toolInput({
  file_path: { type: "string", required: true, description: "Path of the file to write (absolute, or relative to the working directory)" },
  content: { type: "string", required: true, description: "The full content of the file" },
});

export const writeTool: Tool = {
  name: "Write",
  description: [
    "Writes a file to the local filesystem, replacing it if it exists.",
    "- file_path may be absolute or relative to the working directory; missing parent folders are created.",
    "- content is written as UTF-8, exactly as given. An existing file keeps its permissions (an executable script stays executable).",
    "- To change part of an existing file, prefer Edit: it sends only the change.",
    "- Refused when the file changed on disk since you last Read it (the user or another program edited it): Read it again first.",
  ].join("\n"),
  inputSchema: INPUT.schema,
  asksPermission: true,
  summary: summarizeField("file_path", "path"),
  async run(input, ctx) {
    const { file_path, content } = INPUT.parse(input);
    const path = resolvePath(ctx.cwd, file_path);
    ctx.toolState?.files.assertUnchanged(path);
    const existed = writeKeepingMode(path, Buffer.from(content, "utf8"), ctx.fileChange);
    ctx.toolState?.files.wrote(path);
    const lines = content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
    return { content: `${existed ? "Updated" : "Created"} ${path} (${lines} line${lines === 1 ? "" : "s"}, ${Buffer.byteLength(content)} bytes)` };
  },
};

/**
 * Writes `bytes` to `path` in place (truncate + write, never replace the inode), so an existing
 * file keeps its mode, owner and hard links; creates parent folders for a new file.
 * Returns whether the file existed. Throws ToolError naming the path on any failure.
 * The one place the file tools change a file: `fileChange` hears of it just before and after.
 */
export function writeKeepingMode(path: string, bytes: Uint8Array, fileChange?: FileChangeHook): boolean {
  let mode: number | undefined;
  try {
    const stats = statSync(path);
    if (stats.isDirectory()) throw new ToolError(`${path} is a directory; cannot write a file there`);
    if (!stats.isFile()) throw new ToolError(`${path} is not a regular file; not writing to it`);
    mode = stats.mode;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (errnoCode(error) !== "ENOENT") throw new ToolError(`Cannot write ${path}: ${(error as Error).message}`);
  }
  fileChange?.before(path);
  try {
    if (mode === undefined) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  } catch (error) {
    throw new ToolError(`Cannot write ${path}: ${(error as Error).message}`);
  }
  fileChange?.after(path, bytes);
  return mode !== undefined;
}
