/**
 * The interactive session's consent to what a repository's own settings files loosen (loosening.ts:
 * hooks, `env`, `model`, `permissions.allow`, a non-default `defaultMode`, `additionalDirectories` of
 * `.claude/settings.json` and `.claude/settings.local.json`): listed once, and remembered by a fingerprint (SHA-256 of those
 * keys as written) in `agent-settings-approvals.json` in the user's config folder, so a file changed
 * since is asked about again. `deny` and `ask` rules need no consent: they only tighten.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { editJsonFile } from "../../files/json-edit.ts";
import { userConfigDir } from "../../shared/claude-home.ts";
import { readSettingsFiles, type SettingsFile } from "./files.ts";
import { looseningItems } from "./loosening.ts";

export const SETTINGS_APPROVALS_FILE = "agent-settings-approvals.json";

/** What one repository file would loosen, as lines for the question, and its fingerprint. */
export interface Loosening {
  /** The file, relative to the project (`.claude/settings.json`). */
  file: string;
  items: string[];
  fingerprint: string;
}

/**
 * The repository files of `cwd` that loosen something and are not approved as they are now.
 * `files`: the run's settings files as already read (only the project's and local one count);
 * absent, they are read here.
 */
export function pendingLoosening(cwd: string, files?: SettingsFile[], env: Record<string, string | undefined> = process.env): Loosening[] {
  const project = resolve(cwd);
  const approved = approvals(env)[project] ?? {};
  const own = (files ?? readSettingsFiles({ cwd: project, env, sources: "project,local", managedDir: null, warn: () => {} })).filter(
    (f) => f.scope === "project" || f.scope === "local",
  );
  return own.flatMap((f) => {
    const { items, parts } = looseningItems(f.doc);
    if (!items.length) return [];
    const fingerprint = createHash("sha256").update(JSON.stringify(parts)).digest("hex");
    const file = f.path.slice(project.length + 1);
    return approved[file] === fingerprint ? [] : [{ file, items, fingerprint }];
  });
}

/** True when every loosening file of `cwd` is approved as it is now. */
export function looseningApproved(cwd: string, files?: SettingsFile[], env: Record<string, string | undefined> = process.env): boolean {
  return pendingLoosening(cwd, files, env).length === 0;
}

/** Remembers the user's yes for these files as they are now. A failed write is the caller's line. */
export function recordApproval(cwd: string, files: Loosening[], env: Record<string, string | undefined> = process.env): void {
  const project = resolve(cwd);
  editJsonFile(join(userConfigDir(env), SETTINGS_APPROVALS_FILE), () => files.map((f) => ({ path: [project, f.file], value: f.fingerprint })), { mode: 0o600 });
}

function approvals(env: Record<string, string | undefined>): Record<string, Record<string, string>> {
  try {
    const doc = JSON.parse(readFileSync(join(userConfigDir(env), SETTINGS_APPROVALS_FILE), "utf8"));
    return typeof doc === "object" && doc !== null ? doc : {};
  } catch {
    return {};
  }
}
