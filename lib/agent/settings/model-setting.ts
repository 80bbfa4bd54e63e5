/**
 * The settings file's `model` (Claude Code model-config.md): an alias (`opus`, `sonnet`…) resolved
 * through the model table, or a model id used as written. `--model` beats `ANTHROPIC_MODEL`, which
 * beats this value, which beats the default; runtime-options.ts applies that order.
 */
import { modelForAlias } from "../model/model-table.ts";

/** Words that are aliases, not ids: letters only, with Claude Code's optional `[1m]` suffix. */
const ALIAS = /^[A-Za-z]+(\[1m\])?$/;

/**
 * The model id for a settings value, or undefined (after one `warn` line naming `where`) for an
 * alias the table does not know. `default` means no choice.
 */
export function settingsModel(value: string, where: string, warn: (line: string) => void): string | undefined {
  const v = value.trim();
  if (!v || v === "default") return undefined;
  if (!ALIAS.test(v)) return v;
  const id = modelForAlias(v.replace(/\[1m\]$/, ""));
  if (!id) warn(`${where}: unknown model alias "${v}" in "model"; ignored`);
  return id;
}
