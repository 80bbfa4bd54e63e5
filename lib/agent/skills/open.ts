/**
 * Opens a run's skill catalog, loading only what the run needs: with no skills folder and no MCP
 * server configured nothing is imported and there is no catalog; with servers but no skill yet
 * the catalog stays empty (a server may serve some once connected). Either way requests stay as
 * they were: no Skill tool, no listing. Clash lines always reach `log`; ignored front matter only
 * under --debug.
 */
import type { McpRegistry } from "../../mcp/registry/registry.ts";
import { readJsonFile, scopePaths, valueAt } from "../../mcp/config/scopes.ts";
import type { ReadResource } from "./verify.ts";
import type { SkillCatalog } from "./catalog.ts";
import { type FolderSources, skillFolders } from "./folders.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";

export interface SkillOpenOptions {
  cwd: string;
  sources?: FolderSources;
  /** The host's `skills` option (Agent SDK): only these names. */
  only?: readonly string[];
  log(line: string): void;
  debug: boolean;
  /** The run's MCP servers (undefined: none configured). */
  registry?: McpRegistry;
}

/** The catalog, or undefined when there is nothing that could hold a skill. */
export async function openSkills(opts: SkillOpenOptions): Promise<SkillCatalog | undefined> {
  const { registry } = opts;
  const folders = skillFolders(opts.cwd, opts.sources);
  if (!folders.length && !registry) return undefined;
  const local = folders.length ? (await import("./local.ts")).scanLocalSkills(folders) : { skills: [], clashes: [], parseErrors: [] };
  // Servers may serve skills once they connect (the session connects in the background): keep a catalog for them.
  if (!local.skills.length && !registry) return undefined;
  for (const line of local.clashes) opts.log(line);
  for (const line of commandClashes(opts.cwd, local.skills)) opts.log(line);
  if (opts.debug) for (const line of local.parseErrors) opts.log(line);
  const [{ SkillCatalog }, served] = await Promise.all([import("./catalog.ts"), registry ? import("./served.ts") : undefined]);
  const read =
    (server: string): ReadResource =>
    (uri) =>
      registry!.readResource(server, uri) as Promise<{ contents?: unknown[] }>;
  return new SkillCatalog({
    local: local.skills,
    served: () => (served && registry ? served.servedSkills(registry.snapshot(), read) : []),
    servedFile: served && registry && ((name) => served.servedFile(name, registry.snapshot(), read)),
    log: opts.log,
    trusted: () => folderTrusted(opts.cwd),
    only: opts.only,
  });
}

/** A legacy `.claude/commands/<name>.md` that a skill of the same name hides (Claude Code: the skill wins). */
function commandClashes(cwd: string, skills: readonly { name: string }[]): string[] {
  const dirs = [join(cwd, ".claude", "commands"), join(userConfigDir(), "commands")];
  return skills.flatMap((s) =>
    dirs.filter((d) => existsSync(join(d, `${s.name}.md`))).map((d) => `skill "${s.name}" wins over the command ${join(d, `${s.name}.md`)}`),
  );
}

/** Workspace trust, as Claude Code records it: `projects["<dir>"].hasTrustDialogAccepted` in the user's `.claude.json`. */
export function folderTrusted(cwd: string): boolean {
  const paths = scopePaths(cwd);
  return valueAt(readJsonFile(paths.userFile).doc, ["projects", paths.project, "hasTrustDialogAccepted"]) === true;
}
