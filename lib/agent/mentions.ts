/**
 * `@` mentions: files and folders (`@src/a.ts`, `@"my notes.txt"`) and MCP resources
 * (`@<server>:<uri>`, MCP 2025-11-25 server/resources). Each becomes an attachment block in one
 * format; the token itself stays in the prompt. Tokens that name nothing (e-mail addresses,
 * `@scope/pkg`) are left alone.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import type { ContentBlock } from "./messages.ts";
import { InputError, type McpInput } from "./input-types.ts";

/** Files larger than this are attached in part, with a note (bytes). */
const MAX_ATTACHMENT_BYTES = 256 * 1024;
const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

/** The one attachment format, shared by files, folders and MCP resources. */
export function attachment(source: string, text: string): ContentBlock {
  return { type: "text", text: `<attachment source="${source}">\n${text}\n</attachment>` };
}

const MENTION = /(?<=^|\s)@(?:"([^"]+)"|([^\s"]+))/g;

/**
 * Attachments for every mention in `text`, in order. Resource reads run concurrently.
 * @throws InputError when a resource of a configured server cannot be read.
 */
export async function mentionAttachments(text: string, cwd: string, mcp?: McpInput): Promise<ContentBlock[]> {
  const servers = new Set(mcp?.serverNames() ?? []);
  const jobs: Promise<ContentBlock[]>[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const quoted = m[1];
    const token = quoted ?? m[2]!;
    const colon = token.indexOf(":");
    if (!quoted && mcp && colon > 0 && servers.has(token.slice(0, colon))) {
      const uri = stripTrailingPunctuation(token.slice(colon + 1), (u) => /[\w/]$/.test(u));
      const source = `${token.slice(0, colon)}:${uri}`;
      if (!seen.has(source)) jobs.push(readResource(mcp, token.slice(0, colon), uri));
      seen.add(source);
      continue;
    }
    const path = quoted ?? stripTrailingPunctuation(token, (p) => existsSync(resolve(cwd, p)));
    if (seen.has(path) || !existsSync(resolve(cwd, path))) continue;
    seen.add(path);
    jobs.push(Promise.resolve(fileAttachment(cwd, path)));
  }
  return (await Promise.all(jobs)).flat();
}

/** `see @a.txt,` means a.txt: drop trailing punctuation unless the name really has it. */
function stripTrailingPunctuation(token: string, ok: (candidate: string) => boolean): string {
  let t = token;
  while (/[.,;:!?)\]'"]$/.test(t) && !ok(t)) t = t.slice(0, -1);
  return t || token;
}

function fileAttachment(cwd: string, path: string): ContentBlock[] {
  const full = resolve(cwd, path);
  if (statSync(full).isDirectory()) {
    const entries = readdirSync(full, { withFileTypes: true })
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    return [attachment(path, `Directory listing of ${path}:\n${entries.join("\n") || "(empty)"}`)];
  }
  const bytes = readFileSync(full);
  const media = IMAGE_TYPES[extname(full).toLowerCase()];
  if (media) {
    return [attachment(path, `(image, ${media}, ${bytes.length} bytes)`), { type: "image", source: { type: "base64", media_type: media, data: bytes.toString("base64") } }];
  }
  if (bytes.subarray(0, 8192).includes(0)) return [attachment(path, `(binary file, ${bytes.length} bytes, not shown)`)];
  const cut = bytes.length > MAX_ATTACHMENT_BYTES;
  const body = bytes.subarray(0, MAX_ATTACHMENT_BYTES).toString("utf8");
  return [attachment(path, cut ? `${body}\n[… cut at ${MAX_ATTACHMENT_BYTES} of ${bytes.length} bytes; use the Read tool for the rest]` : body)];
}

async function readResource(mcp: McpInput, server: string, uri: string): Promise<ContentBlock[]> {
  const source = `${server}:${uri}`;
  if (!mcp.isConnected(server)) throw new InputError(`cannot read @${source}: MCP server "${server}" is not connected`);
  let result: { contents?: unknown[] };
  try {
    result = await mcp.readResource(server, uri);
  } catch (err) {
    throw new InputError(`cannot read @${source}: ${(err as Error).message}`);
  }
  const blocks: ContentBlock[] = [];
  for (const item of result.contents ?? []) {
    const c = item as { uri?: string; mimeType?: string; text?: string; blob?: string };
    if (typeof c.text === "string") {
      blocks.push(attachment(source, c.text));
    } else if (typeof c.blob === "string") {
      const size = Math.floor((c.blob.length * 3) / 4) - (c.blob.endsWith("==") ? 2 : c.blob.endsWith("=") ? 1 : 0);
      const mime = c.mimeType ?? "application/octet-stream";
      blocks.push(attachment(source, `(binary resource ${c.uri ?? uri}, ${mime}, ${size} bytes)`));
      if (Object.values(IMAGE_TYPES).includes(mime)) blocks.push({ type: "image", source: { type: "base64", media_type: mime, data: c.blob } });
    }
  }
  if (!blocks.length) blocks.push(attachment(source, "(empty resource)"));
  return blocks;
}
