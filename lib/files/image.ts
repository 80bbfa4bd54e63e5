/**
 * Images for the Messages API: the media types it accepts and its per-image size limit, which
 * applies to the base64 text (5 MiB = 5,242,880 characters), not to the decoded bytes. Every
 * path that sends an image (Read, `@file` mentions, MCP tool results, prompts, resources and
 * sampling) builds it with imageBlock, so the model is never sent one the API would refuse.
 */

/** An Anthropic image content block (base64 source). */
export type ImageBlock = { type: "image"; source: { type: "base64"; media_type: string; data: string } };
/** An Anthropic text content block. */
export type TextBlock = { type: "text"; text: string };

/** Media types the Messages API accepts for an image block. */
export const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** The Messages API's per-image limit on the base64 data (characters). */
export const MAX_IMAGE_BASE64_CHARS = 5 * 1024 * 1024;
/** The largest raw image whose base64 fits MAX_IMAGE_BASE64_CHARS (bytes; 3.75 MiB). */
export const MAX_IMAGE_BYTES = (MAX_IMAGE_BASE64_CHARS / 4) * 3;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded size (bytes) of base64 text; whitespace is ignored, malformed text gives an estimate. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/**
 * An Anthropic image block for base64 `data` of type `mediaType` when the API can take it
 * (PNG, JPEG, GIF or WebP; valid base64; at most MAX_IMAGE_BASE64_CHARS characters once
 * whitespace is removed), else a text block describing the image and why it was not sent:
 * `[image: image/svg+xml, 120 bytes, type not supported for display]`. Never throws.
 */
export function imageBlock(mediaType: string, data: string): ImageBlock | TextBlock {
  const compact = data.replace(/\s+/g, "");
  const describe = (why: string): TextBlock => ({ type: "text", text: `[image: ${mediaType}, ${base64Bytes(compact)} bytes, ${why}]` });
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) return describe("type not supported for display");
  if (compact.length % 4 !== 0 || !BASE64.test(compact)) return describe("invalid base64 data");
  if (compact.length > MAX_IMAGE_BASE64_CHARS) {
    return describe(`too large to send: ${compact.length} characters of base64, the API takes at most ${MAX_IMAGE_BASE64_CHARS}`);
  }
  return { type: "image", source: { type: "base64", media_type: mediaType, data: compact } };
}

/** The image media type that a file's first bytes announce (PNG, JPEG, GIF, WebP), or undefined. */
export function imageMediaType(bytes: Uint8Array): string | undefined {
  const starts = (sig: number[], at = 0) => sig.every((v, i) => bytes[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}
