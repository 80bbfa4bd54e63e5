/**
 * Every agent type of a run, as Claude Code finds them: the built-ins, then the user's
 * `$CLAUDE_CONFIG_DIR/agents/*.md` (`~/.claude/agents`), then `.claude/agents/*.md` in the working
 * directory and each parent up to the repository root (the nearest wins), then `--agents` (a JSON
 * object, or with -p a file holding one), then the Agent SDK's `agents` option. A later source
 * replaces an earlier one of the same name, with one line saying which wins. Files are read once
 * at start-up; a folder with more than MAX_FILES files is read up to that many, with one line.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";
import { parseSkillFile } from "../skills/front-matter.ts";
import { builtinAgents } from "./builtin.ts";
import { parseDefinition, printable, type Parsed } from "./parse.ts";
import type { AgentDefinition, AgentSource } from "./types.ts";

/** More files than this in one folder are not read (a listing has a budget anyway). */
export const MAX_FILES = 500;
/** An agent file larger than this is skipped: a prompt, not a data file. */
const MAX_FILE_BYTES = 256 * 1024;

export interface LoadOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** `--agents`: a JSON object's text, or (`fileAllowed`) a path to a file holding one. */
  flag?: string;
  /** With -p, `--agents` may name a file. */
  fileAllowed?: boolean;
  /** The Agent SDK's `agents` option: name → definition object. */
  sdk?: Record<string, unknown>;
  /** Which folders give agents (the Agent SDK's `settingSources`); default both. */
  sources?: { user?: boolean; project?: boolean };
  /** One line for a person (stderr). */
  log(line: string): void;
  /** --debug: also why a file was skipped quietly (no description). */
  debug?: boolean;
}

/** A bad `--agents` value: the run cannot go on as asked (a usage error). */
export class AgentsFlagError extends Error {}

/** The agents of this run, built-ins first, sorted case-insensitively by name. */
export function loadAgents(o: LoadOptions): AgentDefinition[] {
  const env = o.env ?? process.env;
  const byName = new Map<string, AgentDefinition>();
  const add = (def: AgentDefinition) => {
    const old = byName.get(def.name);
    if (old) o.log(`agents: "${def.name}" is defined by the ${describe(old)} and the ${describe(def)}; the ${describe(def)} wins`);
    byName.set(def.name, def);
  };
  const report = (p: Parsed) => {
    for (const w of p.warnings) o.log(w);
    if ("definition" in p) return p.definition;
    if (!p.quiet || o.debug) o.log(p.skipped);
    return undefined;
  };
  for (const def of builtinAgents()) byName.set(def.name, def);
  const folders: { dir: string; source: AgentSource }[] = [];
  if (o.sources?.user !== false) folders.push({ dir: join(userConfigDir(env), "agents"), source: "user" });
  // Farthest first, so the nearest folder's definition replaces a parent's.
  if (o.sources?.project !== false) for (const dir of projectDirs(o.cwd).reverse()) folders.push({ dir: join(dir, ".claude", "agents"), source: "project" });
  const seen = new Set<string>();
  for (const f of folders) {
    if (seen.has(f.dir)) continue;
    seen.add(f.dir);
    const within = new Map<string, AgentDefinition>();
    for (const def of readFolder(f.dir, f.source, report, o.log)) within.set(def.name, def);
    for (const def of within.values()) add(def);
  }
  if (o.flag !== undefined) for (const def of fromObject(flagObject(o.flag, o.fileAllowed ?? false), "flag", "--agents", report)) add(def);
  if (o.sdk) for (const def of fromObject(o.sdk, "sdk", "the agents option", report)) add(def);
  return [...byName.values()].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
}

function describe(def: AgentDefinition): string {
  const what = { "built-in": "built-in agent", user: "user agent", project: "project agent", flag: "--agents entry", sdk: "SDK agents option" }[def.source];
  return def.path && def.source !== "flag" && def.source !== "sdk" ? `${what} (${printable(def.path)})` : what;
}

/** The `.md` files of one folder, parsed; a missing folder gives none. */
function readFolder(dir: string, source: AgentSource, report: (p: Parsed) => AgentDefinition | undefined, log: (line: string) => void): AgentDefinition[] {
  let names: string[];
  try {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".md"))
      .sort();
  } catch (err) {
    log(`agents: cannot read ${printable(dir)}: ${(err as Error).message}`);
    return [];
  }
  if (names.length > MAX_FILES) {
    log(`agents: ${printable(dir)} holds ${names.length} agent files; only the first ${MAX_FILES} are read`);
    names = names.slice(0, MAX_FILES);
  }
  const out: AgentDefinition[] = [];
  for (const file of names) {
    const path = join(dir, file);
    try {
      const st = statSync(path);
      if (!st.isFile()) continue;
      if (st.size > MAX_FILE_BYTES) {
        log(`agents: ${printable(path)} is larger than ${MAX_FILE_BYTES} bytes; skipped`);
        continue;
      }
      const parsed = parseSkillFile(readFileSync(path, "utf8"));
      const def = report(parseDefinition(parsed.meta, parsed.body, file.slice(0, -3), source, path));
      if (def) out.push(def);
    } catch (err) {
      log(`agents: cannot read ${printable(path)}: ${(err as Error).message}`);
    }
  }
  return out;
}

/** `--agents`: JSON text, or a file's JSON when allowed and the value does not look like JSON. */
function flagObject(value: string, fileAllowed: boolean): Record<string, unknown> {
  let text = value;
  if (fileAllowed && !value.trim().startsWith("{")) {
    try {
      text = readFileSync(value, "utf8");
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      throw new AgentsFlagError(
        missing
          ? `--agents ${printable(value)}: no such file (give the agents as JSON text or a file's path)`
          : `--agents: cannot read ${printable(value)}: ${(err as Error).message}`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // A path where only JSON is read (the session, host mode): say so rather than only "Unrecognized token".
    const path = !fileAllowed && !value.trim().startsWith("{") ? " (a file's path is read only with -p; give the JSON itself)" : "";
    throw new AgentsFlagError(`--agents: not valid JSON${path}: ${(err as Error).message.split("\n")[0]}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new AgentsFlagError('--agents: expected a JSON object of agents ({"name": {"description": …, "prompt": …}})');
  return parsed as Record<string, unknown>;
}

function fromObject(obj: Record<string, unknown>, source: AgentSource, where: string, report: (p: Parsed) => AgentDefinition | undefined): AgentDefinition[] {
  const out: AgentDefinition[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      report({ skipped: `${where}: agent ${JSON.stringify(printable(key))} is not an object; skipped`, warnings: [] });
      continue;
    }
    const parsed = parseDefinition({ ...(value as Record<string, unknown>), name: key }, "", key, source, where);
    // Someone typed this entry for this run: a missing description is said, not only with --debug.
    const def = report("skipped" in parsed ? { ...parsed, quiet: false } : parsed);
    if (def) out.push(def);
  }
  return out;
}

/** The working directory and its parents up to the repository root (outside a repository: up to `/`). */
function projectDirs(cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return dirs;
  }
}
