/**
 * The effective settings of a run from its files, highest precedence first (Claude Code
 * settings.md, "Settings precedence"): a scalar takes the highest file's value; permission lists
 * and hooks concatenate; `env` merges key by key. Managed keys (`allowManagedPermissionRulesOnly`,
 * `allowManagedHooksOnly`, `disableAllHooks`, `disableBypassPermissionsMode`) are enforced here,
 * and so is what a repository's own files may not do without trust (workspace-trust.ts decides that).
 */
import type { SettingsFile } from "./files.ts";
import { looseningKeys, sandboxLoosening } from "./loosening.ts";
import { mergeSandbox, type SandboxSettings } from "./sandbox-keys.ts";

export type Behavior = "allow" | "ask" | "deny";

export interface Sourced<T> {
  value: T;
  file: SettingsFile;
}

/** One permission rule as written, with its list and the file it came from. */
export interface RuleText {
  text: string;
  behavior: Behavior;
  file: SettingsFile;
}

export interface EffectiveSettings {
  files: SettingsFile[];
  /** Every rule, in file precedence order, deny lists first within a file. */
  rules: RuleText[];
  /** Each file's raw `hooks` object that may run (hooks.ts parses them). */
  hooks: Sourced<Record<string, unknown>>[];
  /** The merged `env`, after the refusals below. */
  env: Record<string, string>;
  model?: Sourced<string>;
  defaultMode?: Sourced<string>;
  additionalDirectories: Sourced<string>[];
  /** Managed `permissions.disableBypassPermissionsMode: "disable"`. */
  bypassDisabled: boolean;
  /** The `sandbox` keys, merged; a repository's loosening ones only with trust. */
  sandbox: SandboxSettings;
}

export interface MergeOptions {
  /** The workspace is trusted (workspace-trust.ts): the repository's allow rules and additionalDirectories apply. */
  trusted: boolean;
  /** `MCP_REQUIRE_APPROVAL=1` in -p: without trust, nothing of the repository's files loosens the run. */
  requireApproval: boolean;
  /** Why an untrusted repository is held (the warning's first words); `MCP_REQUIRE_APPROVAL=1` by default. */
  gateReason?: string;
  /** Where the trust would be recorded (`projects["<dir>"].hasTrustDialogAccepted` in this file), for the warning. */
  trustFile: string;
  cwd: string;
  warn(line: string): void;
}

/** A repository's own files: what they loosen needs the user's trust. */
const inRepo = (f: SettingsFile) => f.scope === "project" || f.scope === "local";

/**
 * Variables a repository's file may never set: credentials and endpoints, proxies and CAs, what
 * loads code into every process, and where our own state lives.
 */
const REFUSED_IN_REPO =
  /^(ANTHROPIC_.*|(HTTPS?|ALL|NO)_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR)|REQUESTS_CA_BUNDLE|CURL_CA_BUNDLE|NODE_TLS_REJECT_UNAUTHORIZED|NODE_OPTIONS|LD_.*|DYLD_.*|BASH_ENV|ENV|PATH|CLAUDE_CONFIG_DIR)$/i;

const shown = (f: SettingsFile, cwd: string) => (f.path.startsWith(`${cwd}/`) ? f.path.slice(cwd.length + 1) : f.path);

/** Combines `files` (highest first) into the run's settings, reporting through `warn` what was refused. */
export function mergeSettings(files: SettingsFile[], opts: MergeOptions): EffectiveSettings {
  const managed = files.filter((f) => f.scope === "managed");
  const managedSays = (pick: (f: SettingsFile) => unknown) => managed.some((f) => pick(f) === true);
  const gated = opts.requireApproval && !opts.trusted;
  if (gated) warnGated(files.filter(inRepo), opts);
  // With MCP_REQUIRE_APPROVAL and no trust, the repository's files count for their deny and ask rules only.
  const loosening = files.filter((f) => !(gated && inRepo(f)));
  const rulesOnlyManaged = managedSays((f) => f.doc.allowManagedPermissionRulesOnly);
  const rules: RuleText[] = [];
  for (const f of rulesOnlyManaged ? managed : files) {
    for (const behavior of ["deny", "ask", "allow"] as const) {
      const list = f.doc.permissions?.[behavior] ?? [];
      if (behavior === "allow" && inRepo(f) && !opts.trusted) {
        if (list.length && !gated) untrusted(f, "permissions.allow", list.length, opts);
        continue;
      }
      for (const text of list) rules.push({ text, behavior, file: f });
    }
  }
  // A repository's loosening sandbox keys wait for trust, like its allow rules.
  const heldSandbox = new Set(files.filter((f) => inRepo(f) && !opts.trusted));
  for (const f of heldSandbox) {
    const held = sandboxLoosening(f.doc);
    if (held.length && !gated) untrusted(f, held.join(", "), held.length, opts);
  }
  const additionalDirectories: Sourced<string>[] = [];
  for (const f of loosening) {
    const dirs = f.doc.permissions?.additionalDirectories ?? [];
    if (inRepo(f) && !opts.trusted) {
      if (dirs.length && !gated) untrusted(f, "permissions.additionalDirectories", dirs.length, opts);
      continue;
    }
    for (const value of dirs) additionalDirectories.push({ value, file: f });
  }
  return {
    files,
    rules,
    hooks: hookSources(files, loosening, managedSays),
    env: mergeEnv(loosening, opts),
    model: first(loosening, (f) => f.doc.model),
    defaultMode: first(loosening, (f) => f.doc.permissions?.defaultMode),
    additionalDirectories,
    bypassDisabled: managed.some((f) => f.doc.permissions?.disableBypassPermissionsMode === "disable"),
    sandbox: mergeSandbox(files, (f) => !heldSandbox.has(f)),
  };
}

function hookSources(
  all: SettingsFile[],
  loosening: SettingsFile[],
  managedSays: (pick: (f: SettingsFile) => unknown) => boolean,
): Sourced<Record<string, unknown>>[] {
  // Managed hooks survive a user's or project's disableAllHooks; managed disableAllHooks ends them all.
  if (managedSays((f) => f.doc.disableAllHooks)) return [];
  const onlyManaged = managedSays((f) => f.doc.allowManagedHooksOnly) || all.some((f) => f.scope !== "managed" && f.doc.disableAllHooks === true);
  return loosening.filter((f) => f.doc.hooks && (!onlyManaged || f.scope === "managed")).map((f) => ({ value: f.doc.hooks!, file: f }));
}

/** The highest file's value of a scalar key. */
function first<T>(files: SettingsFile[], pick: (f: SettingsFile) => T | undefined): Sourced<T> | undefined {
  for (const file of files) {
    const value = pick(file);
    if (value !== undefined) return { value, file };
  }
  return undefined;
}

/** Key by key, the higher file winning; a repository's file may not set the variables of REFUSED_IN_REPO (one line per file). */
function mergeEnv(files: SettingsFile[], opts: MergeOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const f of [...files].reverse()) {
    const refused: string[] = [];
    for (const [name, value] of Object.entries(f.doc.env ?? {})) {
      if (inRepo(f) && REFUSED_IN_REPO.test(name)) refused.push(name);
      else env[name] = value;
    }
    if (refused.length)
      opts.warn(`${shown(f, opts.cwd)}: env ${refused.join(", ")} not applied: a project's settings may not set ${refused.length === 1 ? "it" : "them"}`);
  }
  return env;
}

/** Claude Code's line for entries an untrusted workspace's file may not apply (settings.md, "Trust"), worded for us. */
function untrusted(f: SettingsFile, key: string, count: number, opts: MergeOptions): void {
  opts.warn(
    `Ignoring ${count} ${key} ${count === 1 ? "entry" : "entries"} from ${shown(f, opts.cwd)}: this workspace has not been trusted. ` +
      `Run the agent interactively here once and accept the trust question, or set projects["${opts.cwd}"].hasTrustDialogAccepted: true in ${opts.trustFile}.`,
  );
}

function warnGated(files: SettingsFile[], opts: MergeOptions): void {
  for (const f of files) {
    const keys = looseningKeys(f.doc);
    if (keys.length) {
      opts.warn(
        `${opts.gateReason ?? "MCP_REQUIRE_APPROVAL=1"}: ignoring ${keys.join(", ")} of ${shown(f, opts.cwd)}: this workspace has not been trusted (its deny and ask rules still apply)`,
      );
    }
  }
}
