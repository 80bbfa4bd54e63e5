/**
 * The model a subagent runs on: the call's `model`, else the definition's, else the parent's.
 * `inherit` is the parent's; an alias (`sonnet`, `opus`, `haiku`, `fable`) is the newest of that
 * family in the model table; a model id in the table is itself. Anything else is refused with a
 * line naming it, never sent to the API as a guess.
 */
import { modelFacts, modelForAlias } from "../model/model-table.ts";

/** The model id to use, or an error line. */
export function resolveSubagentModel(requested: string | undefined, parentModel: string): { model: string } | { error: string } {
  const value = requested?.trim();
  if (!value || value.toLowerCase() === "inherit") return { model: parentModel };
  const alias = modelForAlias(value);
  if (alias) return { model: alias };
  if (modelFacts(value)) return { model: value };
  return { error: `unknown model "${value.slice(0, 80)}": use inherit, sonnet, opus, haiku, fable or a model id the agent knows` };
}
