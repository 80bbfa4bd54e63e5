/**
 * Read of a Jupyter notebook through the real program: every cell with its id, type and source,
 * its outputs (stream text, results, errors without ANSI colours) and an image output as an image
 * block; a notebook that is not valid JSON is one error result, and the run goes on.
 */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A notebook as Jupyter writes one (nbformat 4.5, multiline strings as lists). */
const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: "python3", display_name: "Python 3", language: "python" } },
  cells: [
    { id: "intro", cell_type: "markdown", metadata: {}, source: ["# Sales\n", "A short look."] },
    {
      id: "load",
      cell_type: "code",
      execution_count: 1,
      metadata: {},
      source: ["print('rows', 3)\n", "3 * 7"],
      outputs: [
        { output_type: "stream", name: "stdout", text: ["rows 3\n"] },
        { output_type: "execute_result", execution_count: 1, metadata: {}, data: { "text/plain": ["21"] } },
      ],
    },
    {
      id: "plot",
      cell_type: "code",
      execution_count: 2,
      metadata: {},
      source: "plot()",
      outputs: [{ output_type: "display_data", metadata: {}, data: { "image/png": PNG, "text/plain": ["<Figure>"] } }],
    },
    {
      id: "oops",
      cell_type: "code",
      execution_count: 3,
      metadata: {},
      source: "1/0",
      outputs: [
        {
          output_type: "error",
          ename: "ZeroDivisionError",
          evalue: "division by zero",
          traceback: ["\u001b[0;31mZeroDivisionError\u001b[0m: division by zero"],
        },
      ],
    },
  ],
};

let model: ModelServer | undefined;
afterEach(() => model?.stop());

async function read(content: string) {
  const dir = tempDir();
  writeFileSync(join(dir, "sales.ipynb"), content);
  model = startModelServer([reply(toolUse("Read", { file_path: "sales.ipynb" })), reply(text("done"))]);
  const r = await runAgent(["-p", "read it"], { cwd: dir, model: model.url });
  const result = model.requests[1]!.body.messages.at(-1).content[0];
  return { ...r, result };
}

test("cells, sources and outputs, with the image output as an image", async () => {
  const r = await read(JSON.stringify(NOTEBOOK, null, 1));
  expect(r.code).toBe(0);
  expect(r.result.is_error).toBeUndefined();
  const blocks = r.result.content as { type: string; text?: string; source?: { media_type: string; data: string } }[];
  const texts = blocks.filter((b) => b.type === "text").map((b) => b.text!);
  expect(texts).toHaveLength(4);
  expect(texts[0]).toBe('<cell id="intro" type="markdown">\n# Sales\nA short look.\n</cell>');
  expect(texts[1]).toContain("print('rows', 3)\n3 * 7");
  expect(texts[1]).toContain('<outputs cell="load">\nrows 3\n\n21\n</outputs>');
  expect(texts[3]).toContain("ZeroDivisionError: division by zero");
  expect(texts[3]).not.toContain("\u001b");
  // The image follows the cell it belongs to.
  expect(blocks.map((b) => b.type)).toEqual(["text", "text", "text", "image", "text"]);
  expect(blocks[3]!.source).toEqual({ type: "base64", media_type: "image/png", data: PNG } as never);
});

test("a notebook that is not valid JSON is one error result, and the run goes on", async () => {
  const r = await read('{"cells": [');
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("done\n");
  expect(r.result.is_error).toBe(true);
  expect(r.result.content).toContain("sales.ipynb: not valid JSON");
});
