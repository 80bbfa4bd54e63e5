/**
 * A Jupyter notebook (nbformat 4) as content blocks for the model: every cell with its id, type
 * and source, then its outputs (stream text, results, errors with their traceback, ANSI colours
 * removed), and PNG/JPEG/GIF/WebP outputs as image blocks. Long text outputs are cut.
 */
import { imageBlock, type ImageBlock, type TextBlock } from "./image.ts";
import { truncate } from "./truncate.ts";

/** Characters of one cell's text outputs shown at most. */
export const MAX_OUTPUT_CHARS = 10_000;

/** The notebook's JSON is unusable; the message says why. */
export class NotebookError extends Error {}

interface Cell {
  id?: unknown;
  cell_type?: unknown;
  source?: unknown;
  outputs?: unknown;
  execution_count?: unknown;
}

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** A notebook field that is a string or a list of strings (nbformat's multiline string). */
export function joinSource(value: unknown): string {
  if (typeof value === "string") return value;
  return Array.isArray(value) ? value.filter((s) => typeof s === "string").join("") : "";
}

/** The cells of a notebook's text. @throws NotebookError when it is not JSON or has no `cells` list. */
export function notebookCells(text: string): Cell[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new NotebookError(`not valid JSON (${(err as Error).message})`);
  }
  const cells = (doc as { cells?: unknown })?.cells;
  if (!Array.isArray(cells)) throw new NotebookError('not a Jupyter notebook: no "cells" list');
  return cells.filter((c): c is Cell => typeof c === "object" && c !== null);
}

/** The notebook as blocks: one text block per cell, image blocks after the cell they belong to. */
export function notebookBlocks(text: string): (TextBlock | ImageBlock)[] {
  const cells = notebookCells(text);
  if (!cells.length) return [{ type: "text", text: "(The notebook has no cells.)" }];
  const blocks: (TextBlock | ImageBlock)[] = [];
  cells.forEach((cell, i) => {
    const type = typeof cell.cell_type === "string" ? cell.cell_type : "unknown";
    const id = typeof cell.id === "string" ? cell.id : `cell-${i}`;
    const count = typeof cell.execution_count === "number" ? ` [${cell.execution_count}]` : "";
    const outputs = Array.isArray(cell.outputs) ? cell.outputs : [];
    const texts: string[] = [];
    const images: (TextBlock | ImageBlock)[] = [];
    for (const out of outputs as Record<string, unknown>[]) {
      const data = (out?.data ?? {}) as Record<string, unknown>;
      if (out?.output_type === "stream") texts.push(joinSource(out.text));
      else if (out?.output_type === "error") {
        const trace = Array.isArray(out.traceback) ? joinSource((out.traceback as unknown[]).map((l) => `${String(l)}\n`)) : "";
        texts.push(`${String(out.ename ?? "Error")}: ${String(out.evalue ?? "")}\n${trace}`);
      } else {
        const image = IMAGE_TYPES.find((t) => typeof data[t] === "string");
        if (image) images.push(imageBlock(image, data[image] as string));
        else if (data["text/plain"] !== undefined) texts.push(joinSource(data["text/plain"]));
      }
    }
    const shown = truncate(stripAnsi(texts.join("\n").trimEnd()), MAX_OUTPUT_CHARS, ({ total }) => `\n… [outputs cut: ${total} characters in all]`);
    const head = `<cell id="${id}" type="${type}"${count ? ` execution_count="${count.slice(2, -1)}"` : ""}>`;
    blocks.push({ type: "text", text: `${head}\n${joinSource(cell.source)}\n</cell>${shown ? `\n<outputs cell="${id}">\n${shown}\n</outputs>` : ""}` });
    blocks.push(...images);
  });
  return blocks;
}

function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}
