/**
 * PDFs for the model: a `document` block (base64) when the file is within the Messages API's
 * limits (100 pages; we send at most 20 MB so the request stays under its 32 MB), else the text
 * of its pages, extracted with unpdf (loaded only then), with a note saying why. An encrypted or
 * corrupt file is refused with one line. Page counts come from the file's page objects, and from
 * unpdf when those are compressed out of sight.
 * pdf.js (unpdf's build of it, 1.6 MB) is embedded as a plain file and imported from its path when
 * a PDF is first read: bundled as a module it would also be compiled to bytecode, and the
 * executable would grow past its size limit for code most runs never load.
 */
// @ts-expect-error: Bun gives a file imported `with { type: "file" }` its path (inside the executable once compiled).
import pdfjsFile from "../../node_modules/unpdf/dist/pdfjs.mjs" with { type: "file" };

export type DocumentBlock = { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } };
type TextBlock = { type: "text"; text: string };

export const MAX_PDF_PAGES = 100;
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
/** Characters of extracted text returned at most. */
export const MAX_PDF_TEXT_CHARS = 100_000;

/** The PDF cannot be read; the message says why. */
export class PdfError extends Error {}

/** True when `bytes` start like a PDF (`%PDF-`, after whitespace at most). */
export function isPdf(bytes: Uint8Array): boolean {
  return /^\s*%PDF-/.test(Buffer.from(bytes.subarray(0, 64)).toString("latin1"));
}

/**
 * The blocks to send for a PDF.
 * @throws PdfError when it is encrypted or corrupt.
 */
export async function pdfBlocks(bytes: Buffer): Promise<(DocumentBlock | TextBlock)[]> {
  const text = bytes.toString("latin1");
  if (!isPdf(bytes) || !text.slice(-2048).includes("%%EOF"))
    throw new PdfError("not a readable PDF: it is corrupt or cut short (no PDF header or no end-of-file marker)");
  if (/\/Encrypt\b/.test(text)) throw new PdfError("the PDF is encrypted; it cannot be read without its password");
  let pages = (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
  if (pages === 0) pages = (await openPdf(bytes)).numPages;
  if (pages <= MAX_PDF_PAGES && bytes.length <= MAX_PDF_BYTES) {
    return [{ type: "document", source: { type: "base64", media_type: "application/pdf", data: bytes.toString("base64") } }];
  }
  const why = pages > MAX_PDF_PAGES ? `${pages} pages, over the API's ${MAX_PDF_PAGES}` : `${bytes.length} bytes, over the ${MAX_PDF_BYTES} we send`;
  return [
    {
      type: "text",
      text: `(This PDF is too large to send as a document: ${why}. Its text follows instead, without images or layout.)\n\n${await pdfText(bytes)}`,
    },
  ];
}

/** Pages one `pages` range may name at most (Claude Code's limit). */
export const MAX_RANGE_PAGES = 20;

/**
 * `pages` as Read takes it ("3", "1-5"): the first and last page, 1-based.
 * @throws PdfError naming what is wrong with it.
 */
export function parsePageRange(spec: string): { first: number; last: number } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(spec);
  if (!m) throw new PdfError(`pages must be a page or a range of pages, like "3" or "1-5" (got ${JSON.stringify(spec)})`);
  const first = Number(m[1]);
  const last = m[2] === undefined ? first : Number(m[2]);
  if (first < 1 || last < first) throw new PdfError(`pages "${spec}" is not a range of pages from 1 on, first before last`);
  if (last - first + 1 > MAX_RANGE_PAGES) throw new PdfError(`pages "${spec}" names ${last - first + 1} pages; at most ${MAX_RANGE_PAGES} a call`);
  return { first, last };
}

/**
 * The text of pages `range` of a PDF, with a line saying which pages of how many it is.
 * @throws PdfError when the PDF cannot be read or the range starts past its end.
 */
export async function pdfRangeText(bytes: Buffer, range: { first: number; last: number }): Promise<string> {
  const text = bytes.toString("latin1");
  if (!isPdf(bytes) || !text.slice(-2048).includes("%%EOF"))
    throw new PdfError("not a readable PDF: it is corrupt or cut short (no PDF header or no end-of-file marker)");
  if (/\/Encrypt\b/.test(text)) throw new PdfError("the PDF is encrypted; it cannot be read without its password");
  const total = (await openPdf(bytes)).numPages;
  if (range.first > total) throw new PdfError(`pages ${range.first}-${range.last}: the PDF has ${total} page${total === 1 ? "" : "s"}`);
  const last = Math.min(range.last, total);
  return `(Pages ${range.first}-${last} of ${total}, as text: images and layout are not shown. Read without pages to send the whole PDF as a document.)\n\n${await pdfText(bytes, range.first, last)}`;
}

/** The text of every page, each under a `--- page N ---` line, cut at MAX_PDF_TEXT_CHARS. @throws PdfError */
export async function pdfText(bytes: Buffer, first = 1, last = Number.POSITIVE_INFINITY): Promise<string> {
  const pdf = await openPdf(bytes);
  const { extractText } = await unpdf();
  let pages: string[];
  try {
    pages = (await extractText(pdf, { mergePages: false })).text as string[];
  } catch (err) {
    throw new PdfError(`its text could not be extracted (${(err as Error).message})`);
  }
  const out: string[] = [];
  let size = 0;
  for (let i = first - 1; i < Math.min(pages.length, last); i++) {
    const part = `--- page ${i + 1} ---\n${pages[i]!.trim()}`;
    if (size + part.length > MAX_PDF_TEXT_CHARS) {
      out.push(`… [text cut at ${MAX_PDF_TEXT_CHARS} characters: pages ${i + 1}-${pages.length} not shown]`);
      break;
    }
    out.push(part);
    size += part.length;
  }
  return out.join("\n\n");
}

let pdfjsDefined: Promise<void> | undefined;

/** unpdf with pdf.js imported from the embedded file (never from its own import of "unpdf/pdfjs"). */
async function unpdf(): Promise<typeof import("unpdf")> {
  const mod = await import("unpdf");
  pdfjsDefined ??= mod.definePDFJSModule(() => import(pdfjsFile as string));
  await pdfjsDefined;
  return mod;
}

async function openPdf(bytes: Buffer) {
  const { getDocumentProxy } = await unpdf();
  try {
    // verbosity 0: pdf.js would otherwise print its warnings on stdout.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (err) {
    const name = (err as Error).name;
    if (name === "PasswordException") throw new PdfError("the PDF is encrypted; it cannot be read without its password");
    throw new PdfError(`not a readable PDF: ${(err as Error).message}`);
  }
}
