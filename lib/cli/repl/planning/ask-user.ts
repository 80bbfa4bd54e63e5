/**
 * AskUserQuestion in the session: each question in turn as a picker on the question row
 * (option-picker.ts; arrows, Space, Enter, an "Other" row for free text), the answers then printed
 * in the conversation, and the call allowed with `answers` filled in (question → answer), which the
 * tool hands to the model. Esc or Ctrl-C at any question dismisses them all: one refusal saying so.
 * A call whose input breaks the schema (too many options, none) is refused with the reason.
 */
import type { PermissionDecision } from "../../../agent/loop/loop-options.ts";
import { parseQuestions, type UserQuestion } from "../../../tools/ask-user/ask-user-question.ts";
import type { Key } from "../prompt/key-decoder.ts";
import { OptionPicker, type PickerResult } from "./option-picker.ts";
import type { Style } from "../../ui/style.ts";
import { terminalText } from "../../../shared/terminal-text.ts";

export interface AskUserScreen {
  pick<T>(picker: { lines(): string[]; key(key: Key): T | undefined }): Promise<T | null>;
  print(text: string): void;
}

export const DISMISSED = "The user dismissed the questions without answering. Go on without the answers, or ask in another way.";

/** Asks the call's questions; allows it with the answers, or refuses it. */
export async function askUserQuestions(input: Record<string, unknown>, screen: AskUserScreen, style: Style): Promise<PermissionDecision> {
  let questions: UserQuestion[];
  try {
    questions = parseQuestions(input);
  } catch (err) {
    return { behavior: "deny", message: `<tool_use_error>${(err as Error).message}</tool_use_error>` };
  }
  const answers: Record<string, string> = {};
  for (const [n, q] of questions.entries()) {
    const picker = new OptionPicker(q);
    const step = questions.length > 1 ? style.dim(` (${n + 1} of ${questions.length})`) : "";
    const result: PickerResult | null = await screen.pick({ lines: () => picker.lines(style, step), key: (key) => picker.key(key) });
    if (!result || "dismissed" in result) {
      screen.print(style.dim("(questions dismissed)"));
      return { behavior: "deny", message: DISMISSED };
    }
    answers[q.question] = result.answer;
    screen.print(`${style.dim("?")} ${terminalText(q.question, { oneLine: true })} ${style.bold(terminalText(result.answer, { oneLine: true }))}`);
  }
  return { behavior: "allow", updatedInput: { ...input, answers } };
}
