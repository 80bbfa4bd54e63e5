/**
 * A fetched body as text for the model: HTML converted to Markdown with turndown (loaded on the
 * first HTML page only), scripts, styles and other non-content elements dropped; plain text,
 * Markdown, JSON and XML as they are; anything else refused with its type named. The HTML given
 * to the converter is cut at a character budget, so a page at the download cap converts in
 * bounded time (turndown runs at roughly half a second per MB: see bench/RESULTS.md).
 */
import { ToolError } from "../tool-error.ts";

/** HTML characters converted at most (about 1.5 s of turndown on a slow machine). */
export const HTML_BUDGET = 3_000_000;

const TEXTUAL = /^(text\/|application\/(json|[\w.+-]*\+json|xml|[\w.+-]*\+xml|javascript|x-javascript|ecmascript|x-ndjson|yaml|x-yaml|toml))/;

/** The text of a body of `contentType`, as Markdown when it is HTML. @throws ToolError for a binary type. */
export async function bodyText(body: Buffer, contentType: string): Promise<string> {
  const type = contentType.split(";")[0]!.trim().toLowerCase() || sniff(body);
  if (!TEXTUAL.test(type)) throw new ToolError(`WebFetch reads text pages; this one is ${type}, which it does not convert`);
  const text = new TextDecoder(charset(contentType) as "utf-8", { fatal: false }).decode(body);
  if (type !== "text/html" && type !== "application/xhtml+xml") return text;
  return htmlToMarkdown(text.length > HTML_BUDGET ? text.slice(0, HTML_BUDGET) : text);
}

/** HTML to Markdown: headings in `#` style, `-` bullets, fenced code; the title's text comes first, as turndown gives it. */
export async function htmlToMarkdown(html: string): Promise<string> {
  const { default: TurndownService } = await import("turndown");
  const service = new TurndownService({ headingStyle: "atx", bulletListMarker: "-", codeBlockStyle: "fenced" });
  service.remove(["script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas"]);
  return service.turndown(html).trim();
}

/** A body with no Content-Type: HTML when it looks like it, else plain text when it decodes, else binary. */
function sniff(body: Buffer): string {
  const head = body.subarray(0, 512).toString("latin1").trimStart().toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "text/html";
  return body.subarray(0, 4096).includes(0) ? "application/octet-stream" : "text/plain";
}

function charset(contentType: string): string {
  const name = /charset=["']?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? "utf-8";
  try {
    new TextDecoder(name as "utf-8");
    return name;
  } catch {
    return "utf-8";
  }
}
