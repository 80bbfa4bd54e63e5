/**
 * The run's settings files for every mode (lib/agent/settings): loaded only when one exists or
 * `--settings` is given, so a run without settings never loads the engine.
 */
import { hasSettings } from "../../agent/settings/locate.ts";
import type { SettingsHooks } from "../../agent/settings/turn-hooks.ts";
import { approvalRequired } from "../../agent/project-approval.ts";
import type { CliArgs } from "./args.ts";

/**
 * The settings of a run in `cwd`, or `{usage}` for a bad `--settings`/`--setting-sources` (exit 2).
 * `gateRepository`: the interactive session, which has no trust question for settings yet, treats
 * an untrusted project's files as `MCP_REQUIRE_APPROVAL=1` does in -p.
 */
export async function loadSettings(
  args: CliArgs,
  cwd: string,
  warn: (line: string) => void,
  gateRepository = false,
): Promise<{ hooks?: SettingsHooks; usage?: string }> {
  if (!hasSettings(cwd, args.settings)) return {};
  const { prepareSettings, SettingsFlagError } = await import("../../agent/settings/turn-hooks.ts");
  try {
    return {
      hooks: prepareSettings({
        cwd,
        flag: args.settings,
        sources: args.settingSources,
        requireApproval: gateRepository || approvalRequired(),
        gateReason: gateRepository ? "the interactive session" : undefined,
        warn,
      }),
    };
  } catch (err) {
    if (err instanceof SettingsFlagError) return { usage: err.message };
    throw err;
  }
}
