/**
 * Read of a PDF through the real program: a document block (base64) within the API's limits; over
 * them (more than 100 pages), the text of its pages with a note saying why; an encrypted or a
 * corrupt file is one error result, and the run goes on.
 */
import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makePdf } from "../../support/pdf-files.ts";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let model: ModelServer | undefined;
afterEach(() => model?.stop());

async function read(bytes: Buffer) {
  const dir = tempDir();
  writeFileSync(join(dir, "doc.pdf"), bytes);
  model = startModelServer([reply(toolUse("Read", { file_path: "doc.pdf" })), reply(text("done"))]);
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
