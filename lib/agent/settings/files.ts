/**
 * Claude Code's settings files, read in precedence order (settings.md, "Settings files" and
 * "Settings precedence"): managed (`/etc/claude-code/managed-settings.json` and its
 * `managed-settings.d/*.json` on Linux, `/Library/Application Support/ClaudeCode/` on macOS),
 * `--settings <file or JSON>`, `.claude/settings.local.json`, `.claude/settings.json`, and the
 * user's `settings.json` in `~/.claude` (or `$CLAUDE_CONFIG_DIR`). `--setting-sources` picks which
 * of the last three are read. Each file is checked key by key (schema.ts); merge.ts combines them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";
import { jsonErrorOffset, lineColumn } from "../../files/json-position.ts";
import { managedSettingsDir } from "./locate.ts";
import { checkSettings, type SettingsDoc } from "./schema.ts";

export type SettingsScope = "managed" | "flag" | "local" | "project" | "user";

/** One settings file as read: where it is, what its `/` anchor means, and its keys that passed the check. */
export interface SettingsFile {
  scope: SettingsScope;
  /** The file's path, or `--settings` for inline JSON. */
  path: string;
  /** What a `/x` path rule in this file is relative to (permissions.md, "Read & Edit"): `~/.claude` for the user file, else the project dir. */
  root: string;
  doc: SettingsDoc;
}

/** `--settings` named a missing file or held bad JSON: a usage error (exit 2), found before anything starts. */
export class SettingsFlagError extends Error {}

export interface LoadOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** `--settings`: a file path or a JSON object's text. */
  flag?: string;
  /** `--setting-sources`: comma-separated `user`, `project`, `local`; "" reads none; absent reads all three. */
  sources?: string;
  /** One line per problem (a file or key that could not be used). */
  warn(line: string): void;
  /** Where managed settings live; the platform's fixed folder unless a unit test gives one. */
  managedDir?: string | null;
}

const SOURCE_NAMES = ["user", "project", "local"] as const;

/** `--setting-sources` as a set; throws SettingsFlagError on a name other than user, project, local. */
export function parseSettingSources(value: string | undefined): Set<string> {
  if (value === undefined) return new Set(SOURCE_NAMES);
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!(SOURCE_NAMES as readonly string[]).includes(n)) throw new SettingsFlagError(`--setting-sources: unknown source "${n}" (use user, project, local)`);
  }
  return new Set(names);
}

/**
 * Every settings file that exists, highest precedence first. A file that is not valid JSON is
 * one `warn` line (path:line:column) and is skipped; a key of the wrong type is one line and only
 * that key is dropped (schema.ts). Never reads outside the fixed paths.
 * @throws SettingsFlagError for a bad `--settings` or `--setting-sources`.
 */
export function readSettingsFiles(opts: LoadOptions): SettingsFile[] {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd);
  const sources = parseSettingSources(opts.sources);
  const files: SettingsFile[] = [];
  const add = (scope: SettingsScope, path: string, root: string, text: string | undefined) => {
    if (text === undefined) return;
    const doc = parseSettings(path, text, opts.warn);
    if (doc) files.push({ scope, path, root, doc });
  };
  const managed = opts.managedDir === undefined ? managedSettingsDir() : opts.managedDir;
  if (managed) for (const path of managedFiles(managed)) add("managed", path, cwd, readIfThere(path, opts.warn));
  if (opts.flag !== undefined) files.push(flagSettings(opts.flag, cwd, opts.warn));
  if (sources.has("local")) add("local", join(cwd, ".claude", "settings.local.json"), cwd, readIfThere(join(cwd, ".claude", "settings.local.json"), opts.warn));
  if (sources.has("project")) add("project", join(cwd, ".claude", "settings.json"), cwd, readIfThere(join(cwd, ".claude", "settings.json"), opts.warn));
  if (sources.has("user")) {
    const dir = userConfigDir(env);
    add("user", join(dir, "settings.json"), dir, readIfThere(join(dir, "settings.json"), opts.warn));
  }
  return files;
}

/** Drop-ins (`managed-settings.d/*.json`, alphabetical, later ones winning) before the base file, so the highest comes first. */
function managedFiles(dir: string): string[] {
  let dropIns: string[] = [];
  try {
    dropIns = readdirSync(join(dir, "managed-settings.d"))
      .filter((f) => f.endsWith(".json") && !f.startsWith("."))
      .sort()
      .reverse()
      .map((f) => join(dir, "managed-settings.d", f));
  } catch {
    // No drop-in folder: the common case.
  }
  return [...dropIns, join(dir, "managed-settings.json")];
}

function flagSettings(value: string, cwd: string, warn: (line: string) => void): SettingsFile {
  const inline = value.trimStart().startsWith("{");
  const path = inline ? "--settings" : resolve(cwd, value);
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw new SettingsFlagError(`--settings: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  const problem = jsonProblem(text);
  if (problem) throw new SettingsFlagError(`--settings: ${inline ? "" : `${path}: `}${problem}`);
  const doc = parseSettings(path, text, warn);
  if (!doc) throw new SettingsFlagError(`--settings: ${inline ? "" : `${path}: `}expected a JSON object`);
  return { scope: "flag", path, root: cwd, doc };
}

/** The file's text, or undefined when it does not exist; any other read error is one line. */
function readIfThere(path: string, warn: (line: string) => void): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") warn(`${path}: cannot read settings (${code ?? (err as Error).message}); ignored`);
    return undefined;
  }
}

/** A strict-JSON problem with its position (`invalid JSON at line 3:5: …`), or undefined when the text parses. */
function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ""));
    return undefined;
  } catch (err) {
    const offset = jsonErrorOffset(text);
    const pos = offset >= 0 ? lineColumn(text, offset) : undefined;
    return `invalid JSON${pos ? ` at line ${pos.line}:${pos.column}` : ""}: ${(err as Error).message.replace(/^JSON Parse error: /, "")}`;
  }
}

/** The checked keys of one file, or undefined (after one `warn` line) when it is not a JSON object. */
function parseSettings(path: string, text: string, warn: (line: string) => void): SettingsDoc | undefined {
  let doc: unknown;
  const body = text.replace(/^\uFEFF/, "");
  try {
    doc = JSON.parse(body);
  } catch {
    warn(`${path}: ${jsonProblem(body)}; the file is ignored`);
    return undefined;
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    warn(`${path}: expected a JSON object; the file is ignored`);
    return undefined;
  }
  return checkSettings(doc as Record<string, unknown>, (key, problem) => warn(`${path}${keyPosition(body, key)}: ${problem}; ignored`));
}

/** `:line:column` of the first `"key"` of a dotted path in `text` (a good-enough pointer for a person), else "". */
function keyPosition(text: string, dotted: string): string {
  const last = dotted
    .split(".")
    .at(-1)!
    .replace(/\[\d+\]$/, "");
  const at = text.indexOf(JSON.stringify(last));
  if (at < 0) return "";
  const pos = lineColumn(text, at);
  return `:${pos.line}:${pos.column}`;
}
