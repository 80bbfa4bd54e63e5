/**
 * Claude Code's `NotebookEdit` tool (`notebook_path`, `cell_id`, `new_source`, `cell_type`,
 * `edit_mode` replace/insert/delete): changes one cell of a Jupyter notebook and leaves every
 * other byte of the file as it was (jsonc-parser edits only the spans that change, in the file's
 * own indentation). A replaced code cell loses its outputs and execution count, which no longer
 * match its source. It is an edit like any other: Edit rules, permission modes and the stale-file
 * refusal apply (settings rules.ts, permissions.ts, tool-state.ts).
 */
import { readFileSync } from "node:fs";
import { notebookCells } from "../files/notebook.ts";
import { summarizeField, toolInput } from "./define.ts";
import { errnoCode, resolvePath } from "./input.ts";
import type { Tool } from "./tool.ts";
import { ToolError } from "./tool-error.ts";
import { writeKeepingMode } from "./write.ts";

export const NOTEBOOK_EDIT_TOOL = "NotebookEdit";

const INPUT = toolInput({
  notebook_path: { type: "string", required: true, description: "The absolute path to the Jupyter notebook file to edit" },
  cell_id: {
    type: "string",
    description: "The id of the cell to edit. To insert, the new cell goes after the cell with this id, or first when it is not given",
  },
  new_source: { type: "string", required: true, description: "The new source for the cell" },
  cell_type: { type: "string", enum: ["code", "markdown"], description: "The type of the cell; defaults to the cell's current type, required to insert" },
  edit_mode: { type: "string", enum: ["replace", "insert", "delete"], description: "The kind of edit (default replace)" },
});

type Path = (string | number)[];

export const notebookEditTool: Tool = {
  name: NOTEBOOK_EDIT_TOOL,
  description: [
    "Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb).",
    "- cell_id names the cell (as Read shows it: the cell's id, or cell-N for the N-th cell, from 0, when it has none).",
    "- edit_mode insert adds a new cell after cell_id (or first) and needs cell_type; delete removes the cell; replace (the default) changes its source.",
    "- Replacing a code cell clears its outputs and execution count. Every other cell is left exactly as it was.",
    "- Refused when the notebook changed on disk since you last Read it: Read it again first.",
  ].join("\n"),
  inputSchema: INPUT.schema,
  asksPermission: true,
  summary: summarizeField("notebook_path", "path"),
  async run(input, ctx) {
    const args = INPUT.parse(input);
    const path = resolvePath(ctx.cwd, args.notebook_path);
    const mode = args.edit_mode ?? "replace";
    if (!path.toLowerCase().endsWith(".ipynb")) throw new ToolError(`${path} is not a Jupyter notebook (.ipynb); use Edit for other files`);
    ctx.toolState?.files.assertUnchanged(path);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new ToolError(errnoCode(error) === "ENOENT" ? `File does not exist: ${path}` : `Cannot read ${path}: ${(error as Error).message}`);
    }
    let cells: ReturnType<typeof notebookCells>;
    try {
      cells = notebookCells(text);
    } catch (error) {
      throw new ToolError(`${path}: ${(error as Error).message}`);
    }
    const index = args.cell_id === undefined ? -1 : findCell(cells, args.cell_id);
    if (args.cell_id !== undefined && index < 0) {
      const known = cells.map((c, i) => (typeof c.id === "string" ? c.id : `cell-${i}`));
      throw new ToolError(`no cell with id "${args.cell_id}" in ${path} (its cells: ${known.slice(0, 20).join(", ")}${known.length > 20 ? ", …" : ""})`);
    }
    if (mode !== "insert" && index < 0) throw new ToolError(`cell_id is required to ${mode} a cell`);
    const { modify, applyEdits } = await import("jsonc-parser");
    const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? " ";
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const formattingOptions = { insertSpaces: !indent.startsWith("\t"), tabSize: indent.startsWith("\t") ? 1 : indent.length, eol };
    let out = text;
    const set = (at: Path, value: unknown, isArrayInsertion = false) => {
      out = applyEdits(out, modify(out, at, value, { formattingOptions, isArrayInsertion }));
    };
    const lines = sourceLines(args.new_source);
    let message: string;
    if (mode === "delete") {
      set(["cells", index], undefined);
      message = `Deleted cell ${args.cell_id} of ${path}`;
    } else if (mode === "insert") {
      if (!args.cell_type) throw new ToolError("cell_type (code or markdown) is required to insert a cell");
      const id = newCellId(cells);
      const withIds = cells.some((c) => typeof c.id === "string") || minorVersion(text) >= 5;
      const cell: Record<string, unknown> = { cell_type: args.cell_type };
      if (args.cell_type === "code") cell.execution_count = null;
      if (withIds) cell.id = id;
      cell.metadata = {};
      if (args.cell_type === "code") cell.outputs = [];
      cell.source = lines;
      set(["cells", index + 1], cell, true);
      message = `Inserted a ${args.cell_type} cell${withIds ? ` with id ${id}` : ""} at position ${index + 1} of ${path}`;
    } else {
      const was = cells[index]!.cell_type;
      const type = args.cell_type ?? (was === "markdown" || was === "raw" ? was : "code");
      set(["cells", index, "source"], lines);
      if (type !== was) set(["cells", index, "cell_type"], type);
      if (type === "code") {
        set(["cells", index, "execution_count"], null);
        set(["cells", index, "outputs"], []);
      } else if (was === "code") {
        set(["cells", index, "execution_count"], undefined);
        set(["cells", index, "outputs"], undefined);
      }
      message = `Updated cell ${args.cell_id} of ${path}`;
    }
    try {
      JSON.parse(out);
    } catch {
      throw new ToolError(`the edit would not leave ${path} valid JSON; nothing was written`);
    }
    writeKeepingMode(path, Buffer.from(out, "utf8"), ctx.fileChange);
    ctx.toolState?.files.wrote(path);
    return { content: message };
  },
};

/** The cell `id` names: its own id, or `cell-N` (its index) for a cell without one. */
function findCell(cells: { id?: unknown }[], id: string): number {
  const byId = cells.findIndex((c) => c.id === id);
  if (byId >= 0) return byId;
  const n = /^cell-(\d+)$/.exec(id);
  return n && Number(n[1]) < cells.length && typeof cells[Number(n[1])]!.id !== "string" ? Number(n[1]) : -1;
}

/** nbformat's multiline string: the lines, each keeping its newline. */
function sourceLines(source: string): string[] {
  return source === "" ? [] : source.split(/(?<=\n)/);
}

function minorVersion(text: string): number {
  return Number(/"nbformat_minor"\s*:\s*(\d+)/.exec(text)?.[1] ?? 0);
}

/** An 8-character id no other cell has (nbformat 4.5: 1-64 letters, digits, - and _). */
function newCellId(cells: { id?: unknown }[]): string {
  for (;;) {
    const id = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
    if (!cells.some((c) => c.id === id)) return id;
  }
}
