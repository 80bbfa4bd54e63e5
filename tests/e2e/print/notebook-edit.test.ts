/**
 * NotebookEdit through the real program: offered in -p only when asked; replace, insert and delete
 * write valid nbformat and leave every other cell byte for byte; a cell id that does not exist is
 * one error result; Edit rules and the stale-file refusal apply as to any edit.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";
import { writeJson } from "./settings-support.ts";

/** As Jupyter writes a notebook: one-space indent, multiline strings as lists, a trailing newline. */
const NOTEBOOK = `${JSON.stringify(
  {
    cells: [
      { cell_type: "markdown", id: "title", metadata: {}, source: ["# Title\n", "text"] },
      {
        cell_type: "code",
        execution_count: 4,
        id: "calc",
        metadata: { tags: ["x"] },
        outputs: [{ name: "stdout", output_type: "stream", text: ["42\n"] }],
        source: ["print(6 * 7)"],
      },
      { cell_type: "markdown", id: "end", metadata: {}, source: ["The end."] },
    ],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
    nbformat: 4,
    nbformat_minor: 5,
  },
  null,
  1,
)}\n`;

let model: ModelServer | undefined;
afterEach(() => model?.stop());

async function edit(input: Record<string, unknown>, opts: { args?: string[]; before?: Step[]; setup?: (dir: string) => void } = {}) {
  const dir = tempDir();
  const path = join(dir, "nb.ipynb");
  writeFileSync(path, NOTEBOOK);
  opts.setup?.(dir);
  model = startModelServer([...(opts.before ?? []), reply(toolUse("NotebookEdit", { notebook_path: path, ...input })), reply(text("done"))]);
  const r = await runAgent(["-p", "edit it", ...(opts.args ?? ["--allowedTools", "NotebookEdit"])], { cwd: dir, model: model.url });
  const result = model.requests.at(-1)!.body.messages.at(-1).content[0];
  return { ...r, result, after: readFileSync(path, "utf8"), tools: model.requests[0]!.body.tools.map((t: { name: string }) => t.name) as string[] };
}

/** The parsed cell with id `id`. */
const cellText = (nb: string, id: string) => {
  const cells = JSON.parse(nb).cells as { id: string }[];
  return cells.find((c) => c.id === id);
};

describe("NotebookEdit", () => {
  test("is not offered in -p unless asked", async () => {
    model = startModelServer([reply(text("ok"))]);
    await runAgent(["-p", "hi"], { cwd: tempDir(), model: model.url });
    expect(model.requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain("NotebookEdit");
  });

  test("replace: the new source, outputs cleared; every other byte as it was", async () => {
    const r = await edit({ cell_id: "calc", new_source: "print(1)\nprint(2)" });
    expect(r.tools).toContain("NotebookEdit");
    expect(r.result.is_error).toBeUndefined();
    expect(cellText(r.after, "calc")).toEqual({
      cell_type: "code",
      execution_count: null,
      id: "calc",
      metadata: { tags: ["x"] },
      outputs: [],
      source: ["print(1)\n", "print(2)"],
    } as never);
    const start = NOTEBOOK.indexOf('"execution_count": 4');
    const end = NOTEBOOK.indexOf('  {\n   "cell_type": "markdown",\n   "id": "end"');
    expect(r.after.startsWith(NOTEBOOK.slice(0, start))).toBe(true);
    expect(r.after.endsWith(NOTEBOOK.slice(end))).toBe(true);
  });

  test("insert after a cell, and at the start", async () => {
    const r = await edit({ cell_id: "title", new_source: "x = 1", cell_type: "code", edit_mode: "insert" });
    const cells = JSON.parse(r.after).cells;
    expect(cells.map((c: { cell_type: string }) => c.cell_type)).toEqual(["markdown", "code", "code", "markdown"]);
    expect(cells[1]).toMatchObject({ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: ["x = 1"] });
    expect(cells[1].id).toMatch(/^[0-9a-f]{8}$/);
    const first = await edit({ new_source: "# Top", cell_type: "markdown", edit_mode: "insert" });
    expect(JSON.parse(first.after).cells[0]).toMatchObject({ cell_type: "markdown", source: ["# Top"] });
  });

  test("delete removes the cell and nothing else", async () => {
    const r = await edit({ cell_id: "end", new_source: "", edit_mode: "delete" });
    const before = JSON.parse(NOTEBOOK);
    expect(JSON.parse(r.after)).toEqual({ ...before, cells: before.cells.slice(0, 2) });
  });

  test("a cell id that does not exist is one error result, and the file is untouched", async () => {
    const r = await edit({ cell_id: "nope", new_source: "x" });
    expect(r.code).toBe(0);
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain('no cell with id "nope"');
    expect(r.result.content).toContain("title, calc, end");
    expect(r.after).toBe(NOTEBOOK);
  });

  test("a project's Edit deny rule covers it", async () => {
    const r = await edit(
      { cell_id: "calc", new_source: "x" },
      { setup: (dir) => writeJson(join(dir, ".claude", "settings.json"), { permissions: { deny: ["Edit(*.ipynb)"] } }) },
    );
    expect(r.result.is_error).toBe(true);
    expect(r.after).toBe(NOTEBOOK);
  });

  test("a notebook changed on disk since it was Read is refused", async () => {
    const dir = tempDir();
    const path = join(dir, "nb.ipynb");
    writeFileSync(path, NOTEBOOK);
    // The user's editor saves the notebook between the model's Read and its edit.
    const changedOutside: Step = () => {
      writeFileSync(path, `${NOTEBOOK}\n`);
      return reply(toolUse("NotebookEdit", { notebook_path: path, cell_id: "calc", new_source: "x" }));
    };
    model = startModelServer([reply(toolUse("Read", { file_path: path })), changedOutside, reply(text("done"))]);
    await runAgent(["-p", "edit it", "--allowedTools", "NotebookEdit"], { cwd: dir, model: model.url });
    const result = model.requests.at(-1)!.body.messages.at(-1).content[0];
    expect(result.is_error).toBe(true);
    expect(result.content).toContain("changed on disk since you last read it");
    expect(readFileSync(path, "utf8")).toBe(`${NOTEBOOK}\n`);
  });
});
