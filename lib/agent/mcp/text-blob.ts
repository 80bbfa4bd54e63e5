/**
 * Blobs that are text in disguise. Servers often send a text document as a base64 `blob`
 * (MCP 2025-11-25, server/resources#binary-content) with a text mimeType; the model can read
 * that, so it is shown as text rather than described as binary.
 */

const TEXT_APPLICATION_TYPES = new Set(["application/json", "application/xml", "application/yaml", "application/x-yaml"]);
const TEXT_SUFFIXES = ["+json", "+xml", "+yaml"];

/**
 * True for a mimeType whose content is text: `text/*`, JSON, XML and YAML (`application/json`,
 * `application/xml`, `application/yaml`, `application/x-yaml`, and any `…+json`, `…+xml`,
 * `…+yaml`). Case and parameters (`; charset=…`) are ignored.
 */
export function isTextMimeType(mimeType: string): boolean {
  const type = mimeType.split(";")[0]!.trim().toLowerCase();
  return type.startsWith("text/") || TEXT_APPLICATION_TYPES.has(type) || TEXT_SUFFIXES.some((s) => type.endsWith(s));
}

/**
 * The text of base64 `blob` when `mimeType` is a text type (isTextMimeType) and the bytes are
 * valid UTF-8 (a leading BOM is dropped); otherwise undefined, so the caller describes it as
 * binary. Never throws.
 */
export function textOfBlob(mimeType: string, blob: string): string | undefined {
  if (!isTextMimeType(mimeType)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(blob, "base64"));
  } catch {
    return undefined;
  }
}
