/**
 * Whether the user approved a project's `.mcp.json` servers, in Claude Code's keys so that an
 * answer given in either program holds in both: `enabledMcpjsonServers`, `disabledMcpjsonServers`
 * and `enableAllProjectMcpServers`, written to the project's `.claude/settings.local.json` (where
 * Claude Code's own question writes them) and read from there, from the project's
 * `.claude/settings.json`, from the user's `settings.json` and from the older
 * `projects["<project>"]` keys of the user file. Beside them, our own state (in the user's config
 * folder) keeps a fingerprint (SHA-256 of the entry as written) of each server approved here, so
 * that an entry changed since is asked about again.
 *
 * A cloned repository may carry its own `.claude/` files: as in Claude Code, an approval found
 * there counts only once the user has trusted the folder (`hasTrustDialogAccepted` in the user
 * file), or when our fingerprint of that same entry says the user approved it here. A refusal
 * counts from anywhere.
 */
import { createHash } from "node:crypto";
import { readJsonFile, USER_FILE_MODE, valueAt } from "./scopes.ts";

export interface ApprovalPaths {
  /** The project's absolute path: the key under `projects`, and our state's. */
  project: string;
  /** `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`). */
  userFile: string;
  /** `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`). */
  userSettings: string;
  /** `<project>/.claude/settings.local.json`: read, and written with the answers. */
  localSettings: string;
  /** `<project>/.claude/settings.json`: read only. */
  projectSettings: string;
  /** Our state: `{"<project>": {"<server>": "<fingerprint>"}}`. */
  fingerprints: string;
}

export type Approval = "approved" | "refused" | "pending";

export interface ApprovalStatus {
  status: Approval;
  /** Approved before (by name) but the entry differs from the one approved here. */
  changed?: boolean;
  /** Approved by Claude Code's keys alone: no fingerprint of ours yet. */
  unrecorded?: boolean;
}

/** SHA-256 of the entry's canonical JSON (keys sorted), as written in `.mcp.json`. */
export function fingerprint(entry: unknown): string {
  return createHash("sha256").update(canonical(entry)).digest("hex");
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The status of each of `entries` (name → entry as written in `.mcp.json`). Never throws. */
export function approvalStatus(paths: ApprovalPaths, entries: Record<string, unknown>): Map<string, ApprovalStatus> {
  const legacy = valueAt(readJsonFile(paths.userFile).doc, ["projects", paths.project]);
  const trusted = valueAt(legacy, ["hasTrustDialogAccepted"]) === true;
  const user = readJsonFile(paths.userSettings).doc;
  const inRepo = [readJsonFile(paths.localSettings).doc, readJsonFile(paths.projectSettings).doc];
  const key = (k: string) => (d: unknown) => names(valueAt(d, [k]));
  const refused = new Set([legacy, user, ...inRepo].flatMap(key("disabledMcpjsonServers")));
  const enabled = new Set([legacy, user, ...(trusted ? inRepo : [])].flatMap(key("enabledMcpjsonServers")));
  const enabledInRepo = new Set(inRepo.flatMap(key("enabledMcpjsonServers")));
  const all = [user, ...(trusted ? inRepo : [])].some((d) => valueAt(d, ["enableAllProjectMcpServers"]) === true);
  const prints = valueAt(readJsonFile(paths.fingerprints).doc, [paths.project]);
  const out = new Map<string, ApprovalStatus>();
  for (const [name, entry] of Object.entries(entries)) {
    const recorded = valueAt(prints, [name]);
    const matches = recorded === fingerprint(entry);
    if (refused.has(name)) out.set(name, { status: "refused" });
    else if (all) out.set(name, { status: "approved" });
    else if (enabled.has(name) && recorded === undefined) out.set(name, { status: "approved", unrecorded: true });
    else if ((enabled.has(name) || enabledInRepo.has(name)) && matches) out.set(name, { status: "approved" });
    else if (enabled.has(name) || (enabledInRepo.has(name) && recorded !== undefined)) out.set(name, { status: "pending", changed: true });
    else out.set(name, { status: "pending" });
  }
  return out;
}

/**
 * Remembers the user's answers: approved names join `enabledMcpjsonServers` (and leave
 * `disabledMcpjsonServers`) with their fingerprint recorded; refused ones the other way round.
 * @throws ConfigWriteError when a file cannot be written.
 */
export async function recordApprovals(paths: ApprovalPaths, answers: { name: string; approved: boolean; entry: unknown }[]): Promise<void> {
  if (!answers.length) return;
  // Loaded only when there is something to write: a plain run reads these files, never writes them.
  const { editJsonFile } = await import("../../files/json-edit.ts");
  editJsonFile(paths.localSettings, (doc) => {
    let enabled = names(valueAt(doc, ["enabledMcpjsonServers"]));
    let disabled = names(valueAt(doc, ["disabledMcpjsonServers"]));
    for (const { name, approved } of answers) {
      enabled = enabled.filter((n) => n !== name);
      disabled = disabled.filter((n) => n !== name);
      (approved ? enabled : disabled).push(name);
    }
    return [
      { path: ["enabledMcpjsonServers"], value: enabled },
      { path: ["disabledMcpjsonServers"], value: disabled },
    ];
  });
  editJsonFile(
    paths.fingerprints,
    () => answers.map(({ name, approved, entry }) => ({ path: [paths.project, name], value: approved ? fingerprint(entry) : undefined })),
    { mode: USER_FILE_MODE },
  );
}

/** Records fingerprints for servers approved by Claude Code's keys alone, so later changes are noticed. */
export async function adoptApprovals(paths: ApprovalPaths, entries: Record<string, unknown>): Promise<void> {
  const edits = Object.entries(entries).map(([name, entry]) => ({ path: [paths.project, name], value: fingerprint(entry) }));
  if (!edits.length) return;
  const { editJsonFile } = await import("../../files/json-edit.ts");
  editJsonFile(paths.fingerprints, () => edits, { mode: USER_FILE_MODE });
}
