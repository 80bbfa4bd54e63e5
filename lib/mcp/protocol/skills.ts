/**
 * The skills extension's wire shapes and listing (SEP-2640, `io.modelcontextprotocol/skills`):
 * a server that declares the extension in `capabilities.extensions` answers `skills/list`
 * (paginated, whole entries) and `skills/get`. An entry is `{uri, frontmatter, resources}`,
 * `resources` listing every file as `{uri, digest: "sha256:<64 hex>", size}`, or "dynamic".
 * Listing fetches no file (SK "Lazy Retrieval"): files are read, and verified, only on use.
 */
import { isObject } from "../../shared/values.ts";
import type { ServerCapabilities } from "./protocol.ts";

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** One file of a skill as its manifest lists it. */
export interface McpSkillResource {
  uri: string;
  digest: string;
  size?: number;
}

/** One `skills/list` / `skills/get` entry. `resources` is undefined for "dynamic" or malformed ones (never loaded). */
export interface McpSkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources?: readonly McpSkillResource[];
}

/** True when the server declared the extension (in `capabilities.extensions`). */
export function declaresSkills(capabilities: ServerCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions;
  return isObject(extensions) && isObject(extensions[SKILLS_EXTENSION]);
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** A `skills/list` item as an entry, or undefined when it lacks a uri or a frontmatter object. */
export function skillEntry(item: unknown): McpSkillEntry | undefined {
  if (!isObject(item) || typeof item.uri !== "string" || !isObject(item.frontmatter)) return undefined;
  const resources = Array.isArray(item.resources) ? item.resources.map(resourceOf) : undefined;
  const complete = resources?.every((r): r is McpSkillResource => r !== undefined);
  return { uri: item.uri, frontmatter: item.frontmatter, resources: complete ? (resources as McpSkillResource[]) : undefined };
}

function resourceOf(r: unknown): McpSkillResource | undefined {
  if (!isObject(r) || typeof r.uri !== "string" || typeof r.digest !== "string" || !DIGEST.test(r.digest)) return undefined;
  return { uri: r.uri, digest: r.digest, ...(typeof r.size === "number" ? { size: r.size } : {}) };
}
