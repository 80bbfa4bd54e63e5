/**
 * Claude Code's `WebFetch` tool (`url`, `prompt`, `offset`): fetches the page through the guarded
 * GET (http-get.ts), turns it into Markdown (html.ts), and answers `prompt` about at most 100,000
 * characters of it from `offset` with a separate, tool-less model request, saying where the text
 * was cut and which offset reads on. Pages and answers are cached for 15 minutes (per URL; per URL,
 * prompt and offset); the tool only runs once its call was allowed, so the cache never skips a check.
 */
import { summarizeField, toolInput } from "../define.ts";
import type { Tool, ToolOutput } from "../tool.ts";
import { ToolError } from "../tool-error.ts";
import { WEB_FETCH_TOOL } from "./domain-rule.ts";
import { guardedGet } from "./http-get.ts";
import { bodyText } from "./html.ts";

/** Characters of the page one answer reads. */
export const PAGE_CHARS = 100_000;
/** Bytes downloaded at most (after decompression). */
export const MAX_BYTES = 10_000_000;
export const CACHE_MS = 15 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 60_000;

export interface WebFetchDeps {
  /** Answers `prompt` about `text` with the small model, in a request of its own without tools. */
  answer(text: string, prompt: string, signal: AbortSignal): Promise<string>;
  /** An allow rule names this host by domain (`--allowedTools` or settings): the guard lets private addresses through. */
  hostAllowed(host: string): boolean;
  env?: Record<string, string | undefined>;
  /** The clock the caches read (tests move it). */
  now?(): number;
}

const input = toolInput({
  url: { type: "string", required: true, description: "The URL to fetch (http or https)" },
  prompt: { type: "string", required: true, description: "What to find out from the page" },
  offset: { type: "integer", minimum: 0, description: "Where in the page's text to start reading, in characters (from a previous answer's note)" },
});
(input.schema.properties!.url as Record<string, unknown>).format = "uri";

type Page = { kind: "text"; url: string; text: string } | { kind: "redirect"; url: string; location: string; status: number; statusText: string };

export function webFetchTool(deps: WebFetchDeps): Tool {
  const pages = new Map<string, { at: number; page: Page }>();
  const answers = new Map<string, { at: number; text: string }>();
  const now = deps.now ?? Date.now;
  const fresh = <T extends { at: number }>(map: Map<string, T>, key: string): T | undefined => {
    const hit = map.get(key);
    if (hit && now() - hit.at < CACHE_MS) return hit;
    map.delete(key);
    return undefined;
  };
  const env = deps.env ?? process.env;

  async function load(url: string, signal: AbortSignal, confirm: ((reason: string) => Promise<boolean>) | undefined): Promise<Page> {
    const cached = fresh(pages, url);
    if (cached) return cached.page;
    const timeoutMs = Number(env.WEBFETCH_TIMEOUT_MS) > 0 ? Number(env.WEBFETCH_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
    const got = await guardedGet(url, { hostAllowed: deps.hostAllowed, confirm, maxBytes: MAX_BYTES, timeoutMs, signal, env });
    let page: Page;
    if (got.kind === "redirect") page = got;
    else {
      if (got.status >= 400) throw new ToolError(`${got.url}: HTTP ${got.status}${got.statusText ? ` ${got.statusText}` : ""}`);
      page = { kind: "text", url: got.url, text: await bodyText(got.body, got.contentType) };
    }
    pages.set(url, { at: now(), page });
    return page;
  }

  return {
    name: WEB_FETCH_TOOL,
    description:
      "Fetches a URL, converts the page to Markdown, and answers `prompt` about it with a small, fast model; returns that answer. " +
      "HTTP is upgraded to HTTPS (except on loopback). A redirect to another host is not followed: it is returned to you, and you " +
      "may fetch the new URL. Cloud-metadata addresses are refused unless a WebFetch(domain:…) rule allows the host; loopback and " +
      `private-network addresses need such a rule or the user's yes. Long pages are read ${PAGE_CHARS.toLocaleString("en")} characters at a time from \`offset\`. Pages and answers are cached for 15 minutes.`,
    inputSchema: input.schema,
    readOnly: true,
    summary: summarizeField("url"),
    async run(raw, ctx): Promise<ToolOutput> {
      const { url, prompt, offset = 0 } = input.parse(raw);
      const page = await load(url, ctx.signal, ctx.confirm);
      if (page.kind === "redirect") return { content: redirectText(url, page, prompt) };
      if (offset > 0 && offset >= page.text.length) throw new ToolError(`offset ${offset} is past the end of the page's text (${page.text.length} characters)`);
      const end = Math.min(page.text.length, offset + PAGE_CHARS);
      const key = `${url}\u0000${prompt}\u0000${offset}`;
      let answer = fresh(answers, key)?.text;
      if (answer === undefined) {
        answer = await deps.answer(page.text.slice(offset, end), prompt, ctx.signal);
        answers.set(key, { at: now(), text: answer });
      }
      const cut = offset > 0 || end < page.text.length;
      return { content: cut ? `${answer}${cutNote(page.text.length, offset, end)}` : answer };
    },
  };
}

function cutNote(length: number, start: number, end: number): string {
  const rest = length - end;
  const more = rest > 0 ? ` The last ${rest} were not read: to read on, call WebFetch again with the same url and offset: ${end}.` : "";
  return `\n\n[WebFetch note: the page's text is ${length} characters long, and this answer covers characters ${start} to ${end}.${more}]`;
}

function redirectText(url: string, r: Extract<Page, { kind: "redirect" }>, prompt: string): string {
  return [
    "The URL redirects to another host, which was not fetched.",
    "",
    `Original URL: ${url}`,
    `Redirect URL (the server's Location header, not verified): ${r.location}`,
    `Status: ${r.status}${r.statusText ? ` ${r.statusText}` : ""}`,
    "",
    "To read the new page, call WebFetch again with:",
    `- url: ${JSON.stringify(r.location)}`,
    `- prompt: ${JSON.stringify(prompt)}`,
  ].join("\n");
}
