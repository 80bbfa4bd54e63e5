/**
 * MCP content → Anthropic content blocks: tools/call results (MCP 2025-11-25,
 * server/tools#tool-result), prompts/get messages (server/prompts) and resources/read contents
 * (server/resources). Input comes from a server, so anything malformed is described, never thrown.
 */
import { base64Bytes, imageBlock } from "../../files/image.ts";
import { truncate } from "../../files/truncate.ts";
import { spillText } from "../../files/spill.ts";
import { readMcpEnv } from "../../mcp/config/env.ts";
import type { ToolOutput, ToolResultBlock } from "../../tools/tool.ts";
import { textOfBlob } from "./text-blob.ts";
import { describeType, isObject } from "../../shared/values.ts";

export { normalizeInputSchema } from "./schema.ts";

/** Rough characters per token used to turn the token limit into a character budget. */
export const CHARS_PER_TOKEN = 4;

/** The character budget for one tool result: MAX_MCP_OUTPUT_TOKENS (tokens, default 25000) × 4. */
export function maxOutputChars(env: Record<string, string | undefined> = process.env): number {
  return readMcpEnv(env).maxOutputTokens * CHARS_PER_TOKEN;
}

/**
 * A CallToolResult → the tool_result content for the model.
 * Text blocks only → one string joined with "\n"; any image → an array of text/image blocks.
 * Empty or whitespace-only text blocks are dropped (the Messages API refuses them); nothing
 * left → "(no content)".
 * Empty or missing `content` with `structuredContent` → the structuredContent as JSON text
 * (text content, when present, is kept as the result and structuredContent ignored).
 * `isError: true` → `isError`. Text beyond `maxChars` (characters; default maxOutputChars())
 * is cut and a note appended saying so and how to get less. A result that is not an object, or
 * whose `content` is not an array, → `isError` with a one-line description. Never throws.
 */
export function callToolResultToOutput(result: unknown, opts: { maxChars?: number } = {}): ToolOutput {
  const maxChars = opts.maxChars ?? maxOutputChars();
  if (!isObject(result)) return malformed(`expected an object, got ${describeType(result)}`);
  const isError = result.isError === true ? { isError: true } : {};
  const { content, structuredContent } = result;
  if ((content === undefined || (Array.isArray(content) && content.length === 0)) && structuredContent !== undefined) {
    return { content: withinBudget([{ type: "text", text: JSON.stringify(structuredContent) }], maxChars), ...isError };
  }
  if (content === undefined) return malformed("it has neither content nor structuredContent");
  if (!Array.isArray(content)) return malformed(`"content" is ${describeType(content)}, not an array`);
  const blocks = nonEmpty(content.map(mcpContentToBlock));
  if (blocks.length === 0) return { content: "(no content)", ...isError };
  return { content: withinBudget(blocks, maxChars), ...isError };
}

/**
 * prompts/get `messages` (each `{role, content}` with a single content block) → content blocks
 * for one user turn, in order: text → text, image → image (or a description when the API can't
 * take it), embedded resource → its text, anything else → a one-line description. Empty text is
 * dropped, so a prompt with nothing to say gives []; so does a `messages` that is not an array.
 * Never throws.
 */
export function promptMessagesToBlocks(messages: unknown): ToolResultBlock[] {
  if (!Array.isArray(messages)) return [];
  return nonEmpty(messages.map((m) => mcpContentToBlock(isObject(m) ? m.content : m)));
}

/**
 * resources/read `contents` → content blocks, one per item: text → text (empty text dropped);
 * an `image/*` blob → imageBlock's image, or its description when the API can't take it; a blob
 * with a text mimeType that is valid UTF-8 → its text (textOfBlob); any other blob →
 * `[binary resource <uri>, <mimeType>, <N> bytes, not shown]`. Not an array or
 * nothing left → []. Never throws.
 */
export function resourceContentsToBlocks(contents: unknown): ToolResultBlock[] {
  if (!Array.isArray(contents)) return [];
  const blocks = contents.map((c): ToolResultBlock => {
    if (!isObject(c)) return { type: "text", text: `[malformed resource contents: ${describeType(c)}]` };
    const uri = typeof c.uri === "string" ? c.uri : "(no uri)";
    if (typeof c.text === "string") return { type: "text", text: c.text };
    if (typeof c.blob !== "string") return { type: "text", text: `[resource ${uri} has neither text nor blob]` };
    const mime = typeof c.mimeType === "string" ? c.mimeType : "unknown type";
    if (mime.startsWith("image/")) return imageBlock(mime, c.blob);
    const decoded = textOfBlob(mime, c.blob);
    if (decoded !== undefined) return { type: "text", text: decoded };
    return { type: "text", text: `[binary resource ${uri}, ${mime}, ${base64Bytes(c.blob)} bytes, not shown]` };
  });
  return nonEmpty(blocks);
}

/**
 * One MCP content block (text, image, audio, resource_link, embedded resource; MCP 2025-11-25
 * server/tools#tool-result) → an Anthropic image block, or a text block for everything else
 * (a description for what the model cannot take as is; an embedded resource's text, or its blob
 * when textOfBlob reads it as text, as is). Never throws.
 */
export function mcpContentToBlock(block: unknown): ToolResultBlock {
  const text = (t: string): ToolResultBlock => ({ type: "text", text: t });
  if (!isObject(block)) return text(`[malformed content block: ${describeType(block)}]`);
  const mime = typeof block.mimeType === "string" ? block.mimeType : "unknown type";
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? text(block.text) : text("[malformed text block: no text]");
    case "image":
      return typeof block.data === "string" ? imageBlock(mime, block.data) : text(`[image: ${mime}, no data]`);
    case "audio":
      return text(`[audio: ${mime}, ${typeof block.data === "string" ? base64Bytes(block.data) : 0} bytes]`);
    case "resource_link": {
      const name = typeof block.name === "string" ? block.name : "resource";
      const desc = typeof block.description === "string" ? `: ${block.description}` : "";
      return text(`[resource link: ${name} <${String(block.uri)}>${desc}]`);
    }
    case "resource": {
      const r = isObject(block.resource) ? block.resource : {};
      if (typeof r.text === "string") return text(r.text);
      const rMime = typeof r.mimeType === "string" ? r.mimeType : "unknown type";
      const decoded = typeof r.blob === "string" ? textOfBlob(rMime, r.blob) : undefined;
      if (decoded !== undefined) return text(decoded);
      const size = typeof r.blob === "string" ? `${base64Bytes(r.blob)} bytes` : "no data";
      return text(`[embedded resource ${String(r.uri)}: ${rMime}, ${size}]`);
    }
    default:
      return text(`[unsupported content block type ${JSON.stringify(block.type)}]`);
  }
}

/** Without text blocks that are empty or only whitespace: the Messages API refuses those. */
export function nonEmpty<B extends { type: string; text?: unknown }>(blocks: B[]): B[] {
  return blocks.filter((b) => b.type !== "text" || (typeof b.text === "string" && b.text.trim() !== ""));
}

/**
 * Applies the character budget to the text blocks, in order; the block that crosses it is cut and
 * everything after it dropped. Only text blocks → one string joined with "\n".
 */
function withinBudget(blocks: ToolResultBlock[], maxChars: number): string | ToolResultBlock[] {
  const allText = blocks.every((b) => b.type === "text");
  const texts = blocks.map((b) => (b.type === "text" ? b.text : ""));
  const total = allText ? texts.join("\n").length : texts.reduce((n, t) => n + t.length, 0);
  if (total <= maxChars) return allText ? texts.join("\n") : blocks;
  const note =
    `\n\n[Output truncated: the MCP tool returned ${total} characters, more than the ${maxChars}-character limit ` +
    `(MAX_MCP_OUTPUT_TOKENS). Call the tool again asking for less (a narrower query, a smaller range or a page), ` +
    `or raise MAX_MCP_OUTPUT_TOKENS.]`;
  if (allText) return keptWhole(texts.join("\n"), maxChars, note);
  const kept: ToolResultBlock[] = [];
  let budget = maxChars;
  for (const b of blocks) {
    if (b.type !== "text") {
      kept.push(b);
      continue;
    }
    if (b.text.length <= budget) {
      kept.push(b);
      budget -= b.text.length;
      continue;
    }
    kept.push({ type: "text", text: keptWhole(b.text, budget, note, texts.filter(Boolean).join("\n")) });
    break;
  }
  return kept;
}

/** The tail shown after the cut: a quarter of the budget, at most this many characters. */
const TAIL_CHARS = 2000;

/**
 * `text` cut to its first `maxChars` characters and `note`; when the whole text could be written
 * to a file (spill.ts), the note also gives its path and how to read it, and the last characters follow.
 */
function keptWhole(text: string, maxChars: number, note: string, whole = text): string {
  const path = spillText("mcp", whole);
  if (!path) return truncate(text, maxChars, () => note);
  let tail = whole.slice(Math.max(whole === text ? maxChars : 0, whole.length - Math.min(TAIL_CHARS, Math.floor(maxChars / 4))));
  const first = tail.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) tail = tail.slice(1);
  const saved = ` The whole result (${Buffer.byteLength(whole)} bytes) is saved in ${path}: use Read with offset and limit, or Grep with that path, to see the rest${tail ? `; its last ${tail.length} characters follow` : ""}.`;
  return truncate(text, maxChars, () => `${note.replace(/\]$/, `${saved}]`)}${tail ? `\n\n${tail}` : ""}`);
}

function malformed(why: string): ToolOutput {
  return { content: `MCP tool returned a malformed result: ${why}`, isError: true };
}
