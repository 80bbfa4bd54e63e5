/**
 * The run's settings files for every mode (lib/agent/settings): loaded only when one exists or
 * `--settings` is given, so a run without settings never loads the engine.
 */
import { hasSettings } from "../../agent/settings/locate.ts";
import type { SettingsHooks } from "../../agent/policy/turn-hooks.ts";
import type { Loosening } from "../../agent/settings/consent.ts";
import type { SettingsFile } from "../../agent/settings/files.ts";
import { approvalRequired } from "../../agent/project-approval.ts";
import type { CliArgs } from "./args.ts";
import { scopedFlagRules } from "../../agent/permissions/flag-rules.ts";
import { restoreRequestEnv, snapshotRequestEnv } from "../../shared/request-env.ts";

/**
 * The settings of a run in `cwd`, or `{usage}` for a bad `--settings`/`--setting-sources` (exit 2).
 * `consent` (the interactive session): what an untrusted repository's files loosen applies only
 * once the user said yes to it (consent.ts remembers); without a yes they count for deny and ask
 * rules only, as with `MCP_REQUIRE_APPROVAL=1` in -p.
 */
export async function loadSettings(
  args: CliArgs,
  cwd: string,
  warn: (line: string) => void,
  consent?: (pending: Loosening[]) => Promise<boolean>,
): Promise<{ hooks?: SettingsHooks; usage?: string }> {
  // A scoped rule in --allowedTools/--disallowedTools is a rule like a settings file's: it needs the engine too.
  const flagRules = scopedFlagRules(args.allowedTools, args.disallowedTools);
  if (!hasSettings(cwd, args.settings) && !flagRules.allow.length && !flagRules.deny.length) return {};
  const [{ prepareSettings }, { readSettingsFiles, SettingsFlagError }] = await Promise.all([
    import("../../agent/policy/turn-hooks.ts"),
    import("../../agent/settings/files.ts"),
  ]);
  // Without anyone to ask (-p, host), the variables that shape the request come from the process alone (request-env.ts).
  const processValues = consent ? undefined : snapshotRequestEnv();
  try {
    // Read once: the consent question and the run's settings see the same files.
    const files = readSettingsFiles({ cwd, flag: args.settings, sources: args.settingSources, warn });
    // One trust store: without anyone to ask (-p, host), the session's earlier yes to these files as they are now counts.
    const approved = consent ? await askConsent(cwd, consent, warn, files) : await approvedInSession(cwd, files);
    const hooks = prepareSettings({
      cwd,
      files,
      requireApproval: consent !== undefined || approvalRequired(),
      approved,
      gateReason: consent ? "not approved" : undefined,
      flagRules,
      // Nor do the user's own hooks add context to a scripted run's request.
      homeContext: consent !== undefined,
      warn,
    });
    if (processValues) restoreRequestEnv(processValues);
    if (hooks?.settings.effective.bypassDisabled && (args.permissionMode === "bypassPermissions" || args.skipPermissions)) {
      // Managed policy: the flag would slip it. The run goes on in default mode, which asks (or, with nobody to ask, refuses).
      warn("bypassPermissions is disabled by managed settings (disableBypassPermissionsMode); using the default permission mode");
      args.permissionMode = "default";
      args.skipPermissions = false;
    }
    return { hooks };
  } catch (err) {
    if (err instanceof SettingsFlagError) return { usage: err.message };
    throw err;
  }
}

/** True when the session approved every loosening file of `cwd` as it is now (consent.ts keeps the answers). */
async function approvedInSession(cwd: string, files: SettingsFile[]): Promise<boolean> {
  return (await import("../../agent/settings/consent.ts")).looseningApproved(cwd, files);
}

/** Asks about the repository files not approved as they are now; true when they may apply. */
async function askConsent(
  cwd: string,
  consent: (pending: Loosening[]) => Promise<boolean>,
  warn: (line: string) => void,
  files: SettingsFile[],
): Promise<boolean> {
  const [{ pendingLoosening, recordApproval }, { trustFile, workspaceTrusted }] = await Promise.all([
    import("../../agent/settings/consent.ts"),
    import("../../agent/settings/workspace-trust.ts"),
  ]);
  // A folder trusted in Claude Code's key needs no question, as it needs none there.
  if (workspaceTrusted(cwd, trustFile())) return true;
  const pending = pendingLoosening(cwd, files);
  if (!pending.length) return true;
  if (!(await consent(pending))) return false;
  try {
    recordApproval(cwd, pending);
  } catch (err) {
    warn(`cannot remember the settings approval: ${(err as Error).message}`);
  }
  return true;
}
