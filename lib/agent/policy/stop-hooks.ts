/**
 * The turn's end with Stop hooks (Claude Code hooks.md, "Stop"): a hook's block gives the model
 * another turn with its feedback, counting toward --max-turns; `continue: false` ends the turn.
 */
import type { Conversation } from "../conversation.ts";
import { MaxTurnsError, runLoop } from "../loop/loop.ts";
import type { LoopOptions } from "../loop/loop-options.ts";
import type { ToolGate } from "./gate.ts";
import type { SettingsHooks } from "./turn-hooks.ts";

/**
 * Stop hooks once the model has finished: a block gives it another turn with Claude Code's
 * feedback text, its model calls counting toward --max-turns; `continue: false` ends the turn.
 * @throws MaxTurnsError when another turn would pass --max-turns.
 */
export async function runStopHooks(
  settings: SettingsHooks,
  gate: ToolGate,
  conversation: Conversation,
  loop: LoopOptions,
  first: { text: string; toolBugs: number },
  used: () => number,
  line: (text: string) => void,
): Promise<{ text: string; toolBugs: number }> {
  let result = first;
  for (let active = false; gate.stopped === undefined; active = true) {
    const verdict = await settings.stop(active, result.text, line);
    if (verdict.stop !== undefined) gate.stopped = verdict.stop;
    if (!verdict.again) break;
    if (loop.maxTurns !== undefined && used() >= loop.maxTurns) throw new MaxTurnsError(loop.maxTurns);
    conversation.append({ role: "user", content: [{ type: "text", text: verdict.again }] });
    result = await runLoop(conversation, { ...loop, maxTurns: loop.maxTurns === undefined ? undefined : loop.maxTurns - used() });
  }
  if (gate.stopped !== undefined) line(`Operation stopped by hook: ${gate.stopped}`);
  return result;
}
