/**
 * What a repository's own settings file loosens, defined once: `hooks` (they run commands), `env`,
 * `model`, a `permissions.defaultMode` other than default, `permissions.allow` and
 * `permissions.additionalDirectories`. `deny` and `ask` rules only tighten, so they never count.
 * The session's consent (consent.ts), the trust check of a run's settings (policy/run-settings.ts)
 * and the held-back warning (merge.ts) all read this list, so they cannot drift apart.
 */
import type { SettingsDoc } from "./schema.ts";

export type LooseningKey = "hooks" | "env" | "model" | "permissions.defaultMode" | "permissions.allow" | "permissions.additionalDirectories";

/**
 * What Claude Code holds back in a folder nobody trusted, even without MCP_REQUIRE_APPROVAL
 * (settings.md, "Trust"); the other keys apply in -p unless approval is required.
 */
export const NEEDS_TRUST: ReadonlySet<LooseningKey> = new Set(["permissions.allow", "permissions.additionalDirectories"]);

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
  ];
  // `model` last and only when set: a fingerprint recorded before it counted stays valid (JSON leaves out undefined).
  const parts = {
    hooks: doc.hooks,
    env: doc.env,
    allow: p.allow,
    defaultMode: p.defaultMode,
    additionalDirectories: p.additionalDirectories,
    model: doc.model,
  };
  return { items, parts };
}
