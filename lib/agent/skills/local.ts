/**
 * Local skills: every `<folder>/<name>/SKILL.md` of the skill folders (folders.ts), read and
 * parsed at start-up (their bodies are kept out of the model's context until used). As in
 * Claude Code (skills.md; checked against 2.1.328): the command name is the directory's name;
 * a malformed SKILL.md still loads, with empty metadata; unknown front matter keys are ignored;
 * the first folder to define a name wins (user, then the working directory, then its parents).
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fallbackDescription, parseSkillFile } from "./front-matter.ts";
import { renderBody, skillText } from "./render.ts";
import type { SkillFolder } from "./folders.ts";
import type { Skill } from "./skill.ts";
import { SkillLoadError } from "./skill.ts";
import { errorMessage } from "../../shared/values.ts";

export interface LocalScan {
  skills: Skill[];
  /** One line per name clash: which definition won. */
  clashes: string[];
  /** One line per SKILL.md whose front matter was ignored (shown with --debug). */
  parseErrors: string[];
}

/** Scans `folders` in order. Never throws: an unreadable file is one parse-error line. */
export function scanLocalSkills(folders: readonly SkillFolder[]): LocalScan {
  const byName = new Map<string, Skill>();
  const clashes: string[] = [];
  const parseErrors: string[] = [];
  for (const folder of folders) {
    for (const name of subdirs(folder.dir)) {
      const path = join(folder.dir, name, "SKILL.md");
      if (!existsSync(path)) continue;
      let skill: Skill;
      try {
        skill = readSkill(path, name, folder, (line) => parseErrors.push(line));
      } catch (err) {
        parseErrors.push(`[skills] ${path} could not be read and was skipped: ${errorMessage(err)}`);
        continue;
      }
      const winner = byName.get(name);
      if (winner) clashes.push(`skill "${name}": ${where(winner)} wins over ${where(skill)}`);
      else byName.set(name, skill);
    }
  }
  return { skills: [...byName.values()], clashes, parseErrors };
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.isSymbolicLink())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function where(skill: Skill): string {
  return skill.origin.kind === "mcp" ? `the skill of MCP server "${skill.origin.server}"` : `the ${skill.origin.kind} skill in ${skill.origin.dir}`;
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : undefined);

/** `allowed-tools` as a YAML list, or a comma- or space-separated string (`Bash(git:*) Read`). */
export function toolList(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((t): t is string => typeof t === "string" && t.trim() !== "").map((t) => t.trim());
  if (typeof v !== "string") return [];
  return (v.match(/[^\s,(]+(?:\([^)]*\))?/g) ?? []).filter(Boolean);
}

/** One SKILL.md as a Skill; the body is read again at each load, so edits show without a restart. */
function readSkill(path: string, name: string, folder: SkillFolder, onParseError: (line: string) => void): Skill {
  const parsed = parseSkillFile(readFileSync(path, "utf8"));
  if (parsed.error && !parsed.repaired) onParseError(`[skills] YAML frontmatter in ${path} failed to parse and was ignored: ${parsed.error}`);
  const meta = parsed.meta;
  const dir = join(folder.dir, name);
  const declared = text(meta.name);
  return {
    name,
    displayName: declared && declared !== name ? declared : undefined,
    description: text(meta.description) ?? fallbackDescription(parsed.body),
    whenToUse: text(meta.when_to_use),
    origin: { kind: folder.scope, dir },
    disableModelInvocation: meta["disable-model-invocation"] === true,
    userInvocable: meta["user-invocable"] !== false,
    argumentHint: text(meta["argument-hint"]),
    allowedTools: toolList(meta["allowed-tools"]),
    async load(args) {
      let body: string;
      try {
        body = parseSkillFile(readFileSync(path, "utf8")).body;
      } catch (err) {
        throw new SkillLoadError(`skill "${name}": cannot read ${path}: ${errorMessage(err)}`);
      }
      return { text: skillText(dir, renderBody(body, args, dir)), allowedTools: this.allowedTools };
    },
  };
}
