/**
 * Verification of a served skill's files before the model sees them (SEP-2640, "Integrity and
 * verification"): every read is checked against the held manifest entry, its byte size first,
 * then its SHA-256 digest; SKILL.md's YAML front matter must then equal the entry's
 * `frontmatter` field by field. Any mismatch is a `SkillLoadError` saying what did not match,
 * and the content is dropped. Verified bytes are cached by (server, uri, digest).
 */
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { McpSkillEntry, McpSkillResource } from "../../mcp/protocol/skills.ts";
import { SkillLoadError } from "./skill.ts";
import { isObject } from "../../shared/values.ts";

/** `resources/read` of one server. @throws on a JSON-RPC error */
export type ReadResource = (uri: string) => Promise<{ contents?: unknown[] }>;

const verified = new Map<string, string>();

/**
 * The verified text of `resource` (one file listed in `entry`), read through `read` unless cached.
 * @throws SkillLoadError naming the file and what did not match (size, digest), or why it could not be read.
 */
export async function readVerified(server: string, resource: McpSkillResource, read: ReadResource): Promise<string> {
  const key = JSON.stringify([server, resource.uri, resource.digest]);
  const cached = verified.get(key);
  if (cached !== undefined) return cached;
  let result: { contents?: unknown[] };
  try {
    result = await read(resource.uri);
  } catch (err) {
    throw new SkillLoadError(`${resource.uri} could not be read from MCP server "${server}": ${err instanceof Error ? err.message : String(err)}`);
  }
  const bytes = bytesOf(result, resource.uri);
  if (resource.size !== undefined && bytes.length !== resource.size) {
    throw new SkillLoadError(
      `${resource.uri} failed verification: size mismatch (the manifest says ${resource.size} bytes, MCP server "${server}" sent ${bytes.length})`,
    );
  }
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (digest !== resource.digest) {
    throw new SkillLoadError(
      `${resource.uri} failed verification: digest mismatch (the manifest says ${resource.digest}, the content MCP server "${server}" sent hashes to ${digest})`,
    );
  }
  const text = new TextDecoder().decode(bytes);
  verified.set(key, text);
  return text;
}

/** The content's bytes: its `text` as UTF-8, or its base64 `blob`. */
function bytesOf(result: { contents?: unknown[] }, uri: string): Uint8Array {
  const content = (result.contents ?? []).find((c) => isObject(c) && (c.uri === undefined || c.uri === uri)) ?? result.contents?.[0];
  if (isObject(content) && typeof content.text === "string") return new TextEncoder().encode(content.text);
  if (isObject(content) && typeof content.blob === "string") return Buffer.from(content.blob, "base64");
  throw new SkillLoadError(`${uri}: the resources/read result has no text or blob`);
}

/** The manifest entry for `uri`, if the skill lists it (SEP-2640 "The Acting Window": unlisted reads fail). */
export function listedResource(entry: McpSkillEntry, uri: string): McpSkillResource | undefined {
  return entry.resources?.find((r) => r.uri === uri);
}

/**
 * Checks SKILL.md's parsed front matter against the entry's, field by field.
 * @throws SkillLoadError naming the first field that differs.
 */
export function checkFrontMatter(entry: McpSkillEntry, parsed: Record<string, unknown>, fenced: boolean): void {
  if (!fenced)
    throw new SkillLoadError(`${entry.uri} failed verification: it has no YAML front matter, the manifest lists ${Object.keys(entry.frontmatter).join(", ")}`);
  const keys = new Set([...Object.keys(entry.frontmatter), ...Object.keys(parsed)]);
  for (const key of keys) {
    if (!isDeepStrictEqual(entry.frontmatter[key], parsed[key])) {
      const said = JSON.stringify(entry.frontmatter[key]) ?? "nothing";
      const found = JSON.stringify(parsed[key]) ?? "nothing";
      throw new SkillLoadError(
        `${entry.uri} failed verification: front matter field "${key}" differs from the manifest (manifest: ${said.slice(0, 120)}, SKILL.md: ${found.slice(0, 120)})`,
      );
    }
  }
}
