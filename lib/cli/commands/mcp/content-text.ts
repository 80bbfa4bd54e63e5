/**
 * What MCP servers return, as text for people (`agent mcp call`, `prompt`, `read`): content blocks
 * (MCP 2025-11-25 server/tools, "Tool Result"), resource contents, call and prompt results. Input
 * from servers is never trusted to have the right shape, so nothing here throws on a malformed result.
 */
import { base64Bytes } from "../../../files/image.ts";
import { textOfBlob } from "../../../agent/mcp/text-blob.ts";

/**
 * One MCP content block as text: text as-is; image/audio/blob described with mime type and size
 * in bytes; resource links by URI; embedded text resources by their text.
 */
export function contentText(block: unknown): string {
  const b = (block && typeof block === "object" ? block : {}) as Record<string, any>;
  switch (b.type) {
    case "text":
      return String(b.text ?? "");
    case "image":
    case "audio":
      return `[${b.type} ${b.mimeType ?? "unknown type"}, ${base64Bytes(String(b.data ?? ""))} bytes]`;
    case "resource_link":
      return `[resource link ${b.uri}${b.name ? ` (${b.name})` : ""}]`;
    case "resource":
      return resourceText(b.resource ?? {});
    default:
      return `[${typeof b.type === "string" ? b.type : "unknown"} content]`;
  }
}

/** A resources/read `contents` item or embedded resource: its text (a text blob's too: textOfBlob), or a description of its blob. */
export function resourceText(r: Record<string, any>): string {
  if (typeof r.text === "string") return r.text;
  const decoded = typeof r.blob === "string" && typeof r.mimeType === "string" ? textOfBlob(r.mimeType, r.blob) : undefined;
  if (decoded !== undefined) return decoded;
  return `[binary resource ${r.uri ?? ""}, ${r.mimeType ?? "unknown type"}, ${base64Bytes(String(r.blob ?? ""))} bytes]`;
}

/** `mcp call`: the content blocks one after another; structuredContent alone → its JSON. */
export function callResultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content : [];
  if (!content.length && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent, null, 2);
  return content.map(contentText).join("\n");
}

/** `mcp prompt`: each message as `role: text`. */
export function promptResultText(result: { messages?: unknown }): string {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  return messages.map((m) => `${(m as { role?: string })?.role ?? "?"}: ${contentText((m as { content?: unknown })?.content)}`).join("\n");
}
