/**
 * What a repository's own settings file loosens, defined once: `hooks` (they run commands), `env`,
 * `model`, a `permissions.defaultMode` other than default, `permissions.allow` and
 * `permissions.additionalDirectories`, and the `sandbox` keys that widen the wall or let commands
 * past it (SANDBOX_LOOSENING). `deny` and `ask` rules, and sandbox keys that only narrow it
 * (`enabled: true`, `denyRead`, `denyWrite`, `deniedDomains`), never count.
 * The session's consent (consent.ts), the trust check of a run's settings (policy/run-settings.ts)
 * and the held-back warning (merge.ts) all read this list, so they cannot drift apart.
 */
import type { SettingsDoc } from "./schema.ts";

export type LooseningKey =
  | "hooks"
  | "env"
  | "model"
  | "permissions.defaultMode"
  | "permissions.allow"
  | "permissions.additionalDirectories"
  | SandboxLooseningKey;

/** The sandbox keys that loosen: switched off, commands let past it, more writable or readable paths, more domains. */
export type SandboxLooseningKey =
  | "sandbox.enabled"
  | "sandbox.autoAllowBashIfSandboxed"
  | "sandbox.allowUnsandboxedCommands"
  | "sandbox.excludedCommands"
  | "sandbox.network.allowedDomains"
  | "sandbox.network.strictAllowlist"
  | "sandbox.filesystem.allowWrite"
  | "sandbox.filesystem.allowRead"
  | "sandbox.mcpServers";

/** A file's loosening sandbox keys, in a fixed order. */
export function sandboxLoosening(doc: SettingsDoc): SandboxLooseningKey[] {
  const s = doc.sandbox;
  if (!s) return [];
  const servers = Object.values(s.mcpServers?.servers ?? {});
  const keys: (SandboxLooseningKey | false)[] = [
    s.enabled === false && "sandbox.enabled",
    s.autoAllowBashIfSandboxed === true && "sandbox.autoAllowBashIfSandboxed",
    s.allowUnsandboxedCommands === true && "sandbox.allowUnsandboxedCommands",
    Boolean(s.excludedCommands?.length) && "sandbox.excludedCommands",
    Boolean(s.network?.allowedDomains?.length) && "sandbox.network.allowedDomains",
    s.network?.strictAllowlist === false && "sandbox.network.strictAllowlist",
    Boolean(s.filesystem?.allowWrite?.length) && "sandbox.filesystem.allowWrite",
    Boolean(s.filesystem?.allowRead?.length) && "sandbox.filesystem.allowRead",
    (s.mcpServers?.enabled === false || servers.some((e) => e.enabled === false || e.allowedDomains?.length)) && "sandbox.mcpServers",
  ];
  return keys.filter((k): k is SandboxLooseningKey => k !== false);
}

/**
 * What Claude Code holds back in a folder nobody trusted, even without MCP_REQUIRE_APPROVAL
 * (settings.md, "Trust"); the other keys apply in -p unless approval is required.
 */
export const NEEDS_TRUST: ReadonlySet<LooseningKey> = new Set<LooseningKey>([
  "permissions.allow",
  "permissions.additionalDirectories",
  // A repository may not open its own sandbox without the user's trust (our choice: Claude Code's rule is not measured).
  "sandbox.enabled",
  "sandbox.autoAllowBashIfSandboxed",
  "sandbox.allowUnsandboxedCommands",
  "sandbox.excludedCommands",
  "sandbox.network.allowedDomains",
  "sandbox.network.strictAllowlist",
  "sandbox.filesystem.allowWrite",
  "sandbox.filesystem.allowRead",
  "sandbox.mcpServers",
]);

/** The keys of `doc` that loosen the run, in a fixed order. */
export function looseningKeys(doc: SettingsDoc): LooseningKey[] {
  const p = doc.permissions ?? {};
  const keys: (LooseningKey | false)[] = [
    doc.hooks !== undefined && "hooks",
    doc.env !== undefined && "env",
    doc.model !== undefined && "model",
    p.defaultMode !== undefined && p.defaultMode !== "default" && "permissions.defaultMode",
    Boolean(p.allow?.length) && "permissions.allow",
    Boolean(p.additionalDirectories?.length) && "permissions.additionalDirectories",
    ...sandboxLoosening(doc),
  ];
  return keys.filter((k): k is LooseningKey => k !== false);
}

/** True when `doc` holds something trust must unlock: NEEDS_TRUST keys, or any loosening when approval is required. */
export function needsTrust(doc: SettingsDoc, requireApproval: boolean): boolean {
  return looseningKeys(doc).some((k) => requireApproval || NEEDS_TRUST.has(k));
}

/**
 * What `doc` loosens as lines for a person (`hook PreToolUse: ./fmt.sh`, `env FOO`, `model opus`,
 * `allow Bash(npm test:*)`, `defaultMode acceptEdits`, `additionalDirectories ../x`), and the parts
 * as written, for a fingerprint that changes whenever one of them does.
 */
export function looseningItems(doc: SettingsDoc): { items: string[]; parts: Record<string, unknown> } {
  const keys = new Set(looseningKeys(doc));
  const p = doc.permissions ?? {};
  const hooks = keys.has("hooks")
    ? Object.entries(doc.hooks ?? {}).flatMap(([event, groups]) =>
        Array.isArray(groups)
          ? groups.flatMap((g: { hooks?: { command?: unknown }[] }) =>
              Array.isArray(g?.hooks) ? g.hooks.map((h) => `${event}: ${String(h?.command ?? "?")}`) : [],
            )
          : [],
      )
    : [];
  const items = [
    ...hooks.map((h) => `hook ${h}`),
    ...(keys.has("env") ? Object.keys(doc.env ?? {}).map((name) => `env ${name}`) : []),
    ...(keys.has("model") ? [`model ${doc.model}`] : []),
    ...(keys.has("permissions.allow") ? (p.allow ?? []).map((rule) => `allow ${rule}`) : []),
    ...(keys.has("permissions.defaultMode") ? [`defaultMode ${p.defaultMode}`] : []),
    ...(keys.has("permissions.additionalDirectories") ? (p.additionalDirectories ?? []).map((d) => `additionalDirectories ${d}`) : []),
    ...sandboxLoosening(doc).map((k) => `${k} ${JSON.stringify(sandboxValue(doc, k))}`),
  ];
  // `model` last and only when set: a fingerprint recorded before it counted stays valid (JSON leaves out undefined).
  const parts = {
    hooks: doc.hooks,
    env: doc.env,
    allow: p.allow,
    defaultMode: p.defaultMode,
    additionalDirectories: p.additionalDirectories,
    model: doc.model,
    // Last and only when it loosens something, for the same reason as `model`.
    sandbox: sandboxLoosening(doc).length ? doc.sandbox : undefined,
  };
  return { items, parts };
}

/** The value of a dotted `sandbox.…` key in `doc`. */
function sandboxValue(doc: SettingsDoc, key: SandboxLooseningKey): unknown {
  let at: unknown = doc;
  for (const part of key.split(".")) at = (at as Record<string, unknown> | undefined)?.[part];
  return at;
}
