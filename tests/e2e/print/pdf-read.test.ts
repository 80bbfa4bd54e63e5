/**
 * Read of a PDF through the real program: a document block (base64) within the API's limits; over
 * them (more than 100 pages), the text of its pages with a note saying why; `pages` gives the text
 * of a range (at most 20 pages); an encrypted or a corrupt file, or a bad range, is one error
 * result, and the run goes on.
 */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makePdf } from "../../support/pdf-files.ts";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let model: ModelServer | undefined;
afterEach(() => model?.stop());

async function read(bytes: Buffer, extra: Record<string, unknown> = {}, name = "doc.pdf") {
  const dir = tempDir();
  writeFileSync(join(dir, name), bytes);
  model = startModelServer([reply(toolUse("Read", { file_path: name, ...extra })), reply(text("done"))]);
  const r = await runAgent(["-p", "read it"], { cwd: dir, model: model.url });
  return { ...r, result: model.requests[1]!.body.messages.at(-1).content[0] };
}

test("a PDF within the limits goes as a document block, byte for byte", async () => {
  const pdf = makePdf(["Hello page one", "Second page"]);
  const r = await read(pdf);
  expect(r.code).toBe(0);
  expect(r.result.content).toEqual([{ type: "document", source: { type: "base64", media_type: "application/pdf", data: pdf.toString("base64") } }]);
});

test("over 100 pages: the pages' text, with a note saying why", async () => {
  const r = await read(makePdf(Array.from({ length: 101 }, (_, i) => `Line of page ${i + 1}`)));
  expect(r.code).toBe(0);
  const shown = JSON.stringify(r.result.content);
  expect(shown).toContain("101 pages, over the API's 100");
  expect(shown).toContain("--- page 1 ---\\nLine of page 1");
  expect(shown).toContain("--- page 101 ---\\nLine of page 101");
  // pdf.js says nothing on stdout.
  expect(r.stdout).toBe("done\n");
});

test("pages: the text of that range, saying which pages of how many", async () => {
  const pdf = makePdf(Array.from({ length: 30 }, (_, i) => `Line of page ${i + 1}`));
  const r = await read(pdf, { pages: "3-4" });
  expect(r.result.is_error).toBeUndefined();
  const shown = String(r.result.content);
  expect(shown).toStartWith("(Pages 3-4 of 30, as text");
  expect(shown).toContain("--- page 3 ---\nLine of page 3\n\n--- page 4 ---\nLine of page 4");
  expect(shown).not.toContain("page 5");
});

test.each([
  ["a range that is not one", { pages: "two" }, "doc.pdf", 'like "3" or "1-5"'],
  ["more than 20 pages", { pages: "1-21" }, "doc.pdf", "at most 20"],
  ["a range past the end", { pages: "40" }, "doc.pdf", "has 30 pages"],
  ["pages of a file that is not a PDF", { pages: "1" }, "notes.txt", "PDF files only"],
])("pages: %s is one error result", async (_what, extra, name, words) => {
  const bytes = name.endsWith(".pdf") ? makePdf(Array.from({ length: 30 }, (_, i) => `p${i + 1}`)) : Buffer.from("plain text\n");
  const r = await read(bytes, extra, name);
  expect(r.code).toBe(0);
  expect(r.result.is_error).toBe(true);
  expect(String(r.result.content)).toContain(words);
});

test.each([
  ["an encrypted PDF", makePdf(["secret"], { encrypt: true }), "encrypted"],
  ["a corrupt PDF", Buffer.from("%PDF-1.4\n1 0 obj <<"), "corrupt"],
])("%s is one error result, and the run goes on", async (_what, bytes, words) => {
  const r = await read(bytes);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("done\n");
  expect(r.result.is_error).toBe(true);
  expect(String(r.result.content)).toContain(words);
});
