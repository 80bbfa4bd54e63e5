/**
 * Read: a file's lines numbered like `cat -n`, in windows of at most 2000 lines;
 * images come back as an image block so the model can see them; a Jupyter notebook as its cells
 * and outputs (files/notebook.ts); a PDF as a document, or its text when over the API's limits
 * (files/pdf.ts). Its description is part of -p's first request, so it stays as it was.
 */
import { existsSync } from "node:fs";
import { imageBlock, imageMediaType, MAX_IMAGE_BYTES } from "../files/image.ts";
import { NotebookError, notebookBlocks } from "../files/notebook.ts";
import { isPdf, PdfError, parsePageRange, pdfBlocks, pdfRangeText } from "../files/pdf.ts";
import { summarizeField, toolInput } from "./define.ts";
import { errnoCode, resolvePath } from "./input.ts";
import { readRegularFile, type FileRead } from "../files/regular-file.ts";
import { decodeText, encodingLabel } from "../files/text-file.ts";
import { truncate } from "../files/truncate.ts";
import type { Tool, ToolOutput } from "./tool.ts";
import { ToolError } from "./tool-error.ts";

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
/** Larger files are refused rather than loaded whole (bytes). */
export const MAX_READ_BYTES = 100 * 1024 * 1024;

const INPUT = toolInput({
  file_path: { type: "string", required: true, description: "Path of the file to read (absolute, or relative to the working directory)" },
  offset: { type: "integer", minimum: 1, description: "1-based line number to start reading from" },
  limit: { type: "integer", minimum: 1, description: "Number of lines to read" },
  pages: { type: "string", description: 'PDF files only: the pages to read, as a page or a range ("3", "1-5"); at most 20 pages a call' },
});

export const readTool: Tool = {
  name: "Read",
  description: [
    "Reads a file from the local filesystem.",
    "- file_path may be absolute or relative to the working directory.",
    `- By default reads up to ${DEFAULT_LINE_LIMIT} lines from the start; for long files pass offset (1-based line number to start at) and limit (number of lines).`,
    `- Output is numbered like \`cat -n\`: line number, a tab, then the line. Lines longer than ${MAX_LINE_CHARS} characters are cut.`,
    "- PNG, JPEG, GIF and WebP images are returned as images.",
    "- Files that are not UTF-8 are decoded as UTF-16 (when they have a BOM) or Latin-1, and the output says so.",
    "- To list a directory use Bash (ls) or Glob instead.",
  ].join("\n"),
  inputSchema: INPUT.schema,
  readOnly: true,
  asksPermission: false,
  summary: summarizeField("file_path", "path"),
  async run(input, ctx) {
    const args = INPUT.parse(input);
    const path = resolvePath(ctx.cwd, args.file_path);
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_LINE_LIMIT;
    try {
      const output = await readFile(path, offset, limit, args.pages);
      ctx.toolState?.files.read(path);
      return output;
    } catch (error) {
      if (!existsSync(path)) ctx.toolState?.files.forget(path);
      throw error;
    }
  },
};

async function readFile(path: string, offset: number, limit: number, pages?: string): Promise<ToolOutput> {
  let file: FileRead;
  try {
    file = readRegularFile(path, MAX_READ_BYTES, { refuseOver: MAX_READ_BYTES });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") throw new ToolError(`File does not exist: ${path}`);
    throw new ToolError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  if (file.kind === "directory") throw new ToolError(`${path} is a directory, not a file; use Glob or Bash (ls) to list it`);
  // A FIFO or device would block or never end.
  if (file.kind === "special") throw new ToolError(`${path} is not a regular file`);
  if (file.kind === "too-large" || file.truncated) {
    const size = file.kind === "too-large" ? `${file.size} bytes` : `more than ${MAX_READ_BYTES} bytes`;
    throw new ToolError(`${path} is too large to read (${size}); use Bash (head, tail, sed -n, grep) to look at parts of it`);
  }
  const bytes = file.bytes;
  const image = imageMediaType(bytes);
  if (image) {
    if (bytes.length > MAX_IMAGE_BYTES) {
      throw new ToolError(`${path} is an image too large to send (${bytes.length} bytes, limit ${MAX_IMAGE_BYTES})`);
    }
    return { content: [imageBlock(image, bytes.toString("base64"))] };
  }
  if (bytes.length === 0) return { content: `(The file ${path} exists but is empty.)` };
  const pdf = path.toLowerCase().endsWith(".pdf") || isPdf(bytes);
  if (pages !== undefined && !pdf) throw new ToolError(`pages applies to PDF files only; ${path} is not one (use offset and limit)`);
  if (pdf) {
    try {
      return { content: pages === undefined ? await pdfBlocks(bytes) : await pdfRangeText(bytes, parsePageRange(pages)) };
    } catch (error) {
      if (error instanceof PdfError) throw new ToolError(`${path}: ${error.message}`);
      throw error;
    }
  }
  if (path.toLowerCase().endsWith(".ipynb")) {
    try {
      return { content: notebookBlocks(bytes.toString("utf8")) };
    } catch (error) {
      if (error instanceof NotebookError) throw new ToolError(`${path}: ${error.message}`);
      throw error;
    }
  }
  const decoded = decodeText(bytes);
  if (!decoded) throw new ToolError(`${path} is a binary file (${bytes.length} bytes); it cannot be shown as text`);
  const notice = decoded.encoding === "utf-8" ? "" : `(Decoded as ${encodingLabel(decoded)}: the file is not UTF-8.)\n`;
  return { content: notice + numberLines(decoded.text, offset, limit) };
}

/**
 * `text` as `cat -n` would print lines [offset, offset + limit): each line is its 1-based number
 * right-aligned in 6 columns, a tab, then the line (CR of CRLF removed, cut at MAX_LINE_CHARS),
 * followed by a note naming the next offset when lines remain. Throws ToolError when `offset`
 * (1-based) is past the last line.
 */
export function numberLines(text: string, offset: number, limit: number): string {
  const lines = text.split("\n");
  // A final newline ends the last line rather than starting an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  if (offset > lines.length) {
    throw new ToolError(`offset ${offset} is past the end of the file, which has ${lines.length} line${lines.length === 1 ? "" : "s"}`);
  }
  const end = Math.min(lines.length, offset - 1 + limit);
  const out: string[] = [];
  for (let i = offset - 1; i < end; i++) {
    let line = lines[i]!;
    if (line.endsWith("\r")) line = line.slice(0, -1);
    line = truncate(line, MAX_LINE_CHARS, ({ total }) => `… [line truncated: ${total} chars]`);
    out.push(`${String(i + 1).padStart(6)}\t${line}`);
  }
  let result = out.join("\n");
  if (end < lines.length) {
    result += `\n\n(Showing lines ${offset}-${end} of ${lines.length}. To read more, call Read again with offset=${end + 1}.)`;
  }
  return result;
}
