/**
 * `@server:uri` mentions of a served skill's files (SEP-2640, "Integrity and verification"):
 * a file some skill's manifest lists is checked against its size and digest before the model
 * sees it; any other resource is read as always. The verification code loads only for such a file.
 */
import type { McpRegistry } from "../../mcp/registry/registry.ts";
import { InputError } from "../input/input-shapes.ts";

/**
 * `resources/read` of `uri` on `server`, verified when a skill of that server lists it.
 * @throws InputError naming the mention and what did not match; the registry's errors otherwise.
 */
export async function readMentioned(registry: McpRegistry, server: string, uri: string): Promise<{ contents?: unknown[] }> {
  const read = (u: string) => registry.readResource(server, u) as Promise<{ contents?: unknown[] }>;
  const listed = registry
    .server(server)
    ?.skills?.flatMap((e) => e.resources ?? [])
    .find((r) => r.uri === uri);
  if (!listed) return read(uri);
  const [{ readVerified }, { SkillLoadError }] = await Promise.all([import("./verify.ts"), import("./skill.ts")]);
  try {
    return { contents: [{ uri, mimeType: "text/markdown", text: await readVerified(server, listed, read) }] };
  } catch (err) {
    throw err instanceof SkillLoadError ? new InputError(`@${server}:${uri}: ${err.message}`) : err;
  }
}
