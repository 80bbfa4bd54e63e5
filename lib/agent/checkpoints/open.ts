/**
 * Whether a run keeps checkpoints, and its tracker when it does. Claude Code's rule: on in the
 * interactive session; in -p and host mode only when `CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING`
 * is set (the Agent SDK's `enableFileCheckpointing` sets it), so scripted runs write nothing extra;
 * off everywhere with the setting `fileCheckpointingEnabled: false` or
 * `CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING`. The tracker's code loads only when they are on.
 */
import type { Conversation } from "../conversation.ts";
import type { SettingsFile } from "../settings/files.ts";
import type { FileCheckpoints } from "./tracker.ts";
import type { SettingsHooks } from "../policy/turn-hooks.ts";

type Env = Readonly<Record<string, string | undefined>>;

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

/** The rule above. `files`: the run's settings files, highest precedence first. */
export function checkpointsOn(interactive: boolean, env: Env, files: readonly SettingsFile[] = []): boolean {
  const setting = files.map((f) => f.doc.fileCheckpointingEnabled).find((v) => v !== undefined);
  if (setting === false || truthy(env.CLAUDE_CODE_DISABLE_FILE_CHECKPOINTING)) return false;
  return interactive || truthy(env.CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING);
}

/**
 * The tracker of `conversation`'s session, its index rebuilt from the resumed rows, after
 * finishing a rewind a crash cut short there.
 */
export async function openCheckpoints(
  conversation: Conversation,
  env: Env,
  warn: (line: string) => void,
  debug?: (line: string) => void,
): Promise<FileCheckpoints> {
  const [{ FileCheckpoints }, { BackupStore, fileHistoryRoot }, { recoverRewind }] = await Promise.all([
    import("./tracker.ts"),
    import("./store.ts"),
    import("./apply.ts"),
  ]);
  const store = new BackupStore(fileHistoryRoot(env), conversation.sessionId);
  const finished = recoverRewind(store.dir);
  if (finished) warn(`finished a rewind that was cut short (${finished} file${finished === 1 ? "" : "s"})`);
  return new FileCheckpoints({
    store,
    sessionId: () => conversation.sessionId,
    record: (row) => conversation.note(row),
    warn,
    debug,
    rows: conversation.fileHistory,
  });
}

/** A mode's checkpoints: the tracker when the rule above says on (the run's launch environment decides), else undefined. */
export async function runCheckpoints(
  interactive: boolean,
  run: { launchEnv: Env; settings?: SettingsHooks; conversation: Conversation; args: { debug: boolean } },
  warn: (line: string) => void,
): Promise<FileCheckpoints | undefined> {
  if (!checkpointsOn(interactive, run.launchEnv, run.settings?.settings.effective.files)) return undefined;
  return openCheckpoints(run.conversation, process.env, warn, run.args.debug ? warn : undefined);
}
