/**
 * `@` mentions: files and folders (`@src/a.ts`, `@"my notes.txt"`) and MCP resources
 * (`@<server>:<uri>`, MCP 2025-11-25 server/resources). Each becomes an attachment block in one
 * format; the token itself stays in the prompt. Tokens that name nothing (e-mail addresses,
 * `@scope/pkg`) are left alone. Files are read as the Read tool reads them (regular files only,
 * the same decoding); images and resource contents go through the shared conversions that keep
 * what the Messages API would refuse (empty text, oversized images) out of the message.
 */
import { existsSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { resourceContentsToBlocks } from "../mcp/content.ts";
import { errorMessage } from "../../shared/values.ts";
import { base64Bytes, imageBlock, imageMediaType, MAX_IMAGE_BYTES } from "../../files/image.ts";
import { readRegularFile, type FileRead } from "../../files/regular-file.ts";
import { decodeText, decodeTextPrefix, encodingLabel } from "../../files/text-file.ts";
import type { ContentBlock } from "../messages.ts";
import { InputError, type McpInput } from "./input-shapes.ts";

/** Files larger than this are attached in part, with a note (bytes). */
export const MAX_ATTACHMENT_BYTES = 256 * 1024;

type FileHead = Extract<FileRead, { kind: "file" }>;

/** The one attachment format, shared by files, folders and MCP resources. */
export function attachment(source: string, text: string): ContentBlock {
  return { type: "text", text: `<attachment source="${source}">\n${text}\n</attachment>` };
}

const MENTION = /(?<=^|\s)@(?:"([^"]+)"|([^\s"]+))/g;
/** `<server>:<scheme>://…`: what a resource mention looks like, whether or not the server exists. */
const RESOURCE_LIKE = /^[^\s:/@]+:[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * Attachments for every mention in `text`, in order. Resource reads run concurrently. A mention
 * shaped like a resource (`@<server>:<scheme>://…`) whose server is not configured, and that names
 * no file either, stays text; `warn` gets one line for it naming the servers that exist.
 * @throws InputError, one line naming the mention, when a resource of a configured server or a
 * mentioned path cannot be read (a FIFO, a socket, an fs error).
 */
export async function mentionAttachments(
  text: string,
  cwd: string,
  mcp?: McpInput,
  warn?: (line: string) => void,
  readDenied?: (path: string) => boolean,
): Promise<ContentBlock[]> {
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
    if (!quoted && RESOURCE_LIKE.test(token) && !existsSync(resolve(cwd, token))) {
      const named = stripTrailingPunctuation(token, (u) => /[\w/]$/.test(u));
      if (!seen.has(named)) warn?.(unknownServerHint(named, [...servers]));
      seen.add(named);
      continue;
    }
    const path = quoted ?? stripTrailingPunctuation(token, (p) => existsSync(resolve(cwd, p)));
    if (seen.has(path) || !existsSync(resolve(cwd, path))) continue;
    seen.add(path);
    if (readDenied?.(resolve(cwd, path))) {
      warn?.(`@${path}: not attached: a Read rule of your permission settings denies it`);
      continue;
    }
    // Through the promise, so a failing file still lets Promise.all handle a failing resource read.
    jobs.push(Promise.resolve().then(() => fileAttachment(cwd, path)));
  }
  return (await Promise.all(jobs)).flat();
}

function unknownServerHint(token: string, servers: string[]): string {
  const server = token.slice(0, token.indexOf(":"));
  const known = servers.length ? `the MCP servers are ${servers.map((s) => `"${s}"`).join(", ")}` : "no MCP servers are configured";
  return `@${token}: no MCP server named "${server}" (${known}); sent as plain text`;
}

/** `see @a.txt,` means a.txt: drop trailing punctuation unless the name really has it. */
function stripTrailingPunctuation(token: string, ok: (candidate: string) => boolean): string {
  let t = token;
  while (/[.,;:!?)\]'"]$/.test(t) && !ok(t)) t = t.slice(0, -1);
  return t || token;
}

/**
 * A file's or folder's attachment. Files are read like Read reads them (regular files only, at
 * most MAX_ATTACHMENT_BYTES, UTF-16/Latin-1 decoding); images travel as image blocks.
 * @throws InputError naming the mention for anything that is not a regular file or folder, and
 * for any fs error.
 */
function fileAttachment(cwd: string, path: string): ContentBlock[] {
  const full = resolve(cwd, path);
  try {
    const file = readRegularFile(full, MAX_ATTACHMENT_BYTES);
    if (file.kind === "directory") return [attachment(path, directoryListing(full, path))];
    if (file.kind !== "file") throw new InputError(`cannot read @${path}: not a regular file`);
    const media = imageMediaType(file.bytes);
    if (media) return imageAttachment(full, path, media, file);
    return [attachment(path, fileText(file))];
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot read @${path}: ${(err as Error).message}`);
  }
}

function directoryListing(full: string, path: string): string {
  const entries = readdirSync(full, { withFileTypes: true })
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  return `Directory listing of ${path}:\n${entries.join("\n") || "(empty)"}`;
}

/** The attachment text of a file read in part or whole: decoded text with notes, or why it is not shown. */
function fileText(file: FileHead): string {
  const { bytes, size, truncated } = file;
  if (bytes.length === 0) return "(empty file)";
  const decoded = truncated ? decodeTextPrefix(bytes) : decodeText(bytes);
  if (!decoded) return `(binary file, ${Math.max(size, bytes.length)} bytes, not shown)`;
  const notice = decoded.encoding === "utf-8" ? "" : `(Decoded as ${encodingLabel(decoded)}: the file is not UTF-8.)\n`;
  if (!truncated) return notice + decoded.text;
  const of = size > bytes.length ? `of ${size} bytes` : "of a longer file";
  return `${notice}${decoded.text}\n[… cut after the first ${MAX_ATTACHMENT_BYTES} bytes ${of}; use the Read tool for the rest]`;
}

/** An image file: its attachment line and the image block, or a line saying why it is not attached. */
function imageAttachment(full: string, path: string, media: string, head: FileHead): ContentBlock[] {
  const file = head.truncated ? readRegularFile(full, MAX_IMAGE_BYTES) : head;
  if (file.kind !== "file") throw new InputError(`cannot read @${path}: not a regular file`);
  if (file.truncated) {
    const size = Math.max(file.size, file.bytes.length);
    return [attachment(path, `(image, ${media}, ${size} bytes: not attached, the API takes images up to ${MAX_IMAGE_BYTES} bytes)`)];
  }
  const block = imageBlock(media, file.bytes.toString("base64"));
  if (block.type !== "image") return [attachment(path, block.text)];
  return [attachment(path, `(image, ${media}, ${file.bytes.length} bytes)`), block];
}

async function readResource(mcp: McpInput, server: string, uri: string): Promise<ContentBlock[]> {
  const source = `${server}:${uri}`;
  if (!mcp.isConnected(server)) throw new InputError(`cannot read @${source}: MCP server "${server}" is not connected`);
  let result: { contents?: unknown[] };
  try {
    result = await mcp.readResource(server, uri);
  } catch (err) {
    throw new InputError(`cannot read @${source}: ${errorMessage(err)}`);
  }
  const blocks = resourceContentsToBlocks(result.contents);
  if (!blocks.length) return [attachment(source, "(empty resource)")];
  // Text goes in the attachment format; an image follows a line naming it, as for @file.
  return blocks.flatMap((b): ContentBlock[] =>
    b.type === "text" ? [attachment(source, b.text)] : [attachment(source, `(image, ${b.source.media_type}, ${base64Bytes(b.source.data)} bytes)`), b],
  );
}
