/**
 * Opens a run's skill catalog, loading only what the run needs: no skills folder and no server
 * serving skills means nothing is imported and no catalog exists, so requests stay as they were
 * (no Skill tool, no listing). Clash lines always reach `log`; ignored front matter only under --debug.
 */
import type { ServerSnapshot } from "../../mcp/registry/registry.ts";
import type { McpRegistry } from "../../mcp/registry/registry.ts";
import { readJsonFile, scopePaths, valueAt } from "../../mcp/config/scopes.ts";
import type { ReadResource } from "./verify.ts";
import type { SkillCatalog } from "./catalog.ts";
import { type FolderSources, skillFolders } from "./folders.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { userConfigDir } from "../../shared/config-dir.ts";

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

interface Sources {
  cwd: string;
  servers?(): readonly ServerSnapshot[];
}

/** The catalog, or undefined when there is nothing that could hold a skill. */
export async function openSkills(options: SkillOpenOptions): Promise<SkillCatalog | undefined> {
  const registry = options.registry;
  const opts = {
    ...options,
    servers: registry && (() => registry.snapshot()),
    read:
      registry &&
      ((server: string): ReadResource =>
        (uri) =>
          registry.readResource(server, uri) as Promise<{ contents?: unknown[] }>),
  };
  const folders = skillFolders(opts.cwd, opts.sources);
  const serving = () => (opts.servers?.() ?? []).some((s) => s.skills?.length);
  if (!folders.length && !opts.servers) return undefined;
  const local = folders.length ? (await import("./local.ts")).scanLocalSkills(folders) : { skills: [], clashes: [], parseErrors: [] };
  if (!local.skills.length && !serving() && !opts.servers) return undefined;
  for (const line of local.clashes) opts.log(line);
  for (const line of commandClashes(opts.cwd, local.skills)) opts.log(line);
  if (opts.debug) for (const line of local.parseErrors) opts.log(line);
  const [{ SkillCatalog }, served] = await Promise.all([import("./catalog.ts"), opts.servers ? import("./served.ts") : undefined]);
  const read = opts.read ?? (() => () => Promise.reject(new Error("no MCP servers")));
  return new SkillCatalog({
    local: local.skills,
    served: () => (served && opts.servers ? served.servedSkills(opts.servers(), read) : []),
    servedFile: served && ((name) => servedFileSkill(name, opts, read, served)),
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

/** `<served skill name>/<path>`: that skill's file, as a Skill whose load reads and verifies it. */
function servedFileSkill(name: string, opts: Sources, read: (server: string) => ReadResource, served: typeof import("./served.ts")) {
  const slash = name.indexOf("/");
  if (slash < 0 || !opts.servers) return undefined;
  const all = served.servedSkills(opts.servers(), read);
  // The longest skill name that prefixes it: `mcp__docs__acme/refunds/examples/a.md` may name a path-named skill.
  const owner = all.filter((s) => name.startsWith(`${s.name}/`)).sort((a, b) => b.name.length - a.name.length)[0];
  if (owner?.origin.kind !== "mcp") return undefined;
  const { server, uri } = owner.origin;
  const entry = opts
    .servers()
    .find((s) => s.name === server)
    ?.skills?.find((e) => e.uri === uri);
  if (!entry) return undefined;
  const path = name.slice(owner.name.length + 1);
  return { ...owner, name, load: async () => ({ text: await served.loadServedFile(server, entry, path, read(server)), allowedTools: [] }) };
}

/** Workspace trust, as Claude Code records it: `projects["<dir>"].hasTrustDialogAccepted` in the user's `.claude.json`. */
export function folderTrusted(cwd: string): boolean {
  const paths = scopePaths(cwd);
  return valueAt(readJsonFile(paths.userFile).doc, ["projects", paths.project, "hasTrustDialogAccepted"]) === true;
}
