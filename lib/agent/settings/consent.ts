/**
 * The interactive session's consent to what a repository's own settings files loosen (hooks, `env`,
 * `permissions.allow`, a non-default `defaultMode`, `additionalDirectories` of `.claude/settings.json`
 * and `.claude/settings.local.json`): listed once, and remembered by a fingerprint (SHA-256 of those
 * keys as written) in `agent-settings-approvals.json` in the user's config folder, so a file changed
 * since is asked about again. `deny` and `ask` rules need no consent: they only tighten.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { editJsonFile } from "../../files/json-edit.ts";
import { userConfigDir } from "../../shared/config-dir.ts";
import { readSettingsFiles } from "./files.ts";
import type { SettingsDoc } from "./schema.ts";

export const SETTINGS_APPROVALS_FILE = "agent-settings-approvals.json";

/** What one repository file would loosen, as lines for the question, and its fingerprint. */
export interface Loosening {
  /** The file, relative to the project (`.claude/settings.json`). */
  file: string;
  items: string[];
  fingerprint: string;
}

function loosening(doc: SettingsDoc): { items: string[]; parts: unknown } {
  const p = doc.permissions ?? {};
  const hooks = Object.entries(doc.hooks ?? {}).flatMap(([event, groups]) =>
    Array.isArray(groups)
      ? groups.flatMap((g: { hooks?: { command?: unknown }[] }) =>
          Array.isArray(g?.hooks) ? g.hooks.map((h) => `${event}: ${String(h?.command ?? "?")}`) : [],
        )
      : [],
  );
  const items = [
    ...hooks.map((h) => `hook ${h}`),
    ...Object.keys(doc.env ?? {}).map((name) => `env ${name}`),
    ...(p.allow ?? []).map((rule) => `allow ${rule}`),
    ...(p.defaultMode && p.defaultMode !== "default" ? [`defaultMode ${p.defaultMode}`] : []),
    ...(p.additionalDirectories ?? []).map((d) => `additionalDirectories ${d}`),
  ];
  return { items, parts: { hooks: doc.hooks, env: doc.env, allow: p.allow, defaultMode: p.defaultMode, additionalDirectories: p.additionalDirectories } };
}

/** The repository files of `cwd` that loosen something and are not approved as they are now. */
export function pendingLoosening(cwd: string, env: Record<string, string | undefined> = process.env): Loosening[] {
  const project = resolve(cwd);
  const approved = approvals(env)[project] ?? {};
  const files = readSettingsFiles({ cwd: project, env, sources: "project,local", managedDir: null, warn: () => {} });
  return files.flatMap((f) => {
    const { items, parts } = loosening(f.doc);
    if (!items.length) return [];
    const fingerprint = createHash("sha256").update(JSON.stringify(parts)).digest("hex");
    const file = f.path.slice(project.length + 1);
    return approved[file] === fingerprint ? [] : [{ file, items, fingerprint }];
  });
}

/** True when every loosening file of `cwd` is approved as it is now. */
export function looseningApproved(cwd: string, env: Record<string, string | undefined> = process.env): boolean {
  return pendingLoosening(cwd, env).length === 0;
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
