/**
 * The settings keys we read and their types (Claude Code settings.md, "Available settings";
 * permissions.md; hooks.md). A key of the wrong type is reported and dropped on its own, so that
 * a typo in `model` does not take a file's deny rules with it. Unknown keys are ignored silently,
 * as Claude Code does, since newer versions add keys.
 */
import { checkSandbox, type SandboxDoc } from "./sandbox-keys.ts";

export interface PermissionsDoc {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  defaultMode?: string;
  additionalDirectories?: string[];
  /** Managed only: `"disable"` refuses bypassPermissions. */
  disableBypassPermissionsMode?: string;
}

/** The keys of one settings file that passed the check; `hooks` stays raw for hooks.ts. */
export interface SettingsDoc {
  permissions?: PermissionsDoc;
  env?: Record<string, string>;
  hooks?: Record<string, unknown>;
  model?: string;
  disableAllHooks?: boolean;
  /** False: no file checkpoints in any mode (agent/checkpoints/open.ts). */
  fileCheckpointingEnabled?: boolean;
  /** Managed only. */
  allowManagedHooksOnly?: boolean;
  allowManagedPermissionRulesOnly?: boolean;
  /** Claude Code's OS sandbox keys (sandbox-keys.ts). */
  sandbox?: SandboxDoc;
}

type Check = (v: unknown) => boolean;
const isString: Check = (v) => typeof v === "string";
const isBool: Check = (v) => typeof v === "boolean";
const isStrings: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isObject: Check = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

const TOP: Record<string, [Check, string]> = {
  model: [isString, "must be a string"],
  disableAllHooks: [isBool, "must be true or false"],
  fileCheckpointingEnabled: [isBool, "must be true or false"],
  allowManagedHooksOnly: [isBool, "must be true or false"],
  allowManagedPermissionRulesOnly: [isBool, "must be true or false"],
  hooks: [isObject, 'must be an object of events ({"PreToolUse": [...]})'],
};

const PERMISSIONS: Record<string, [Check, string]> = {
  allow: [isStrings, "must be an array of rule strings"],
  ask: [isStrings, "must be an array of rule strings"],
  deny: [isStrings, "must be an array of rule strings"],
  additionalDirectories: [isStrings, "must be an array of paths"],
  defaultMode: [isString, "must be a string"],
  disableBypassPermissionsMode: [isString, 'must be "disable"'],
};

/**
 * The keys of `raw` we read, each of the right type; `problem(key, text)` is called once per key
 * dropped (`key` dotted, as `permissions.allow`).
 */
export function checkSettings(raw: Record<string, unknown>, problem: (key: string, text: string) => void): SettingsDoc {
  const doc: Record<string, unknown> = {};
  for (const [key, [check, text]] of Object.entries(TOP)) {
    if (!Object.hasOwn(raw, key)) continue;
    if (check(raw[key])) doc[key] = raw[key];
    else problem(key, `"${key}" ${text}`);
  }
  if (Object.hasOwn(raw, "env")) {
    const env = checkEnv(raw.env, problem);
    if (env) doc.env = env;
  }
  if (Object.hasOwn(raw, "sandbox")) {
    const sandbox = checkSandbox(raw.sandbox, problem);
    if (sandbox) doc.sandbox = sandbox;
  }
  if (Object.hasOwn(raw, "permissions")) {
    if (!isObject(raw.permissions)) problem("permissions", '"permissions" must be an object');
    else {
      const given = raw.permissions as Record<string, unknown>;
      const perms: Record<string, unknown> = {};
      for (const [key, [check, text]] of Object.entries(PERMISSIONS)) {
        if (!Object.hasOwn(given, key)) continue;
        if (check(given[key])) perms[key] = given[key];
        else problem(`permissions.${key}`, `"permissions.${key}" ${text}`);
      }
      doc.permissions = perms;
    }
  }
  return doc as SettingsDoc;
}

/** `env` as name → string; numbers and booleans are taken as their text (Claude Code coerces them too). */
function checkEnv(value: unknown, problem: (key: string, text: string) => void): Record<string, string> | undefined {
  if (!isObject(value)) {
    problem("env", '"env" must be an object of NAME: "value"');
    return undefined;
  }
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (typeof v === "string") env[name] = v;
    else if (typeof v === "number" || typeof v === "boolean") env[name] = String(v);
    else problem(`env.${name}`, `"env.${name}" must be a string`);
  }
  return env;
}
