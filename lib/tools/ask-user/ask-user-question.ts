/**
 * AskUserQuestion (Claude Code's name and input schema, sdk-tools.d.ts `AskUserQuestionInput`):
 * 1 to 4 questions, each with a short header, 2 to 4 options and `multiSelect`; an "other" answer
 * in the user's own words is always possible. The asking is the call's permission question (the
 * session's picker, host mode's `can_use_tool`), which returns the input with `answers` filled in
 * (question text → answer; several choices joined by ", "), as the Agent SDK expects; the tool
 * then hands the answers to the model. Never offered in -p.
 */
import type { InputSchema, Tool } from "../tool.ts";
import { ToolError } from "../tool-error.ts";

export interface QuestionOption {
  label: string;
  description: string;
  preview?: string;
}

export interface UserQuestion {
  question: string;
  header: string;
  options: QuestionOption[];
  multiSelect: boolean;
}

const OPTION = {
  type: "object",
  properties: {
    label: { type: "string", description: "The choice as the user sees it: 1 to 5 words." },
    description: { type: "string", description: "What this choice means or leads to." },
    preview: { type: "string", description: "Optional longer content shown while the option is focused." },
  },
  required: ["label", "description"],
  additionalProperties: false,
};

const SCHEMA: InputSchema = {
  type: "object",
  properties: {
    questions: {
      type: "array",
      minItems: 1,
      maxItems: 4,
      description: "Questions to ask the user (1-4 questions)",
      items: {
        type: "object",
        properties: {
          question: { type: "string", description: "The whole question, ending with a question mark." },
          header: { type: "string", description: "A very short label shown as a tag (at most 12 characters)." },
          options: {
            type: "array",
            minItems: 2,
            maxItems: 4,
            items: OPTION,
            description: "2 to 4 distinct choices; do not add an 'Other' choice, the user always has one.",
          },
          multiSelect: { type: "boolean", description: "True when the user may pick several choices." },
        },
        required: ["question", "header", "options", "multiSelect"],
        additionalProperties: false,
      },
    },
    answers: { type: "object", additionalProperties: { type: "string" }, description: "Filled in by the question's dialog; leave it out." },
    annotations: { type: "object", description: "Filled in by the question's dialog; leave it out." },
    metadata: { type: "object", properties: { source: { type: "string" } }, description: "Optional; not shown to the user." },
  },
  required: ["questions"],
  additionalProperties: false,
};

/** The questions of a call, checked against the schema. @throws ToolError with one line naming what is wrong. */
export function parseQuestions(input: Record<string, unknown>): UserQuestion[] {
  const bad = (why: string) => new ToolError(`Invalid input for AskUserQuestion: ${why}`);
  const qs = input.questions;
  if (!Array.isArray(qs) || qs.length < 1 || qs.length > 4) throw bad("`questions` must hold 1 to 4 questions");
  return qs.map((raw, n) => {
    const q = (raw ?? {}) as Record<string, unknown>;
    for (const key of ["question", "header"])
      if (typeof q[key] !== "string" || !(q[key] as string).trim()) throw bad(`\`questions[${n}].${key}\` must be a non-empty string`);
    if (typeof q.multiSelect !== "boolean") throw bad(`\`questions[${n}].multiSelect\` must be true or false`);
    const options = q.options;
    if (!Array.isArray(options) || options.length < 2 || options.length > 4) throw bad(`\`questions[${n}].options\` must hold 2 to 4 options`);
    const parsed = options.map((rawOption, k) => {
      const o = (rawOption ?? {}) as Record<string, unknown>;
      if (typeof o.label !== "string" || !o.label.trim()) throw bad(`\`questions[${n}].options[${k}].label\` must be a non-empty string`);
      if (typeof o.description !== "string") throw bad(`\`questions[${n}].options[${k}].description\` must be a string`);
      return { label: o.label, description: o.description, ...(typeof o.preview === "string" ? { preview: o.preview } : {}) };
    });
    if (new Set(parsed.map((o) => o.label)).size !== parsed.length) throw bad(`\`questions[${n}].options\` has two options with the same label`);
    return { question: q.question as string, header: q.header as string, options: parsed, multiSelect: q.multiSelect };
  });
}

/** The tool. */
export const askUserQuestionTool: Tool = {
  name: "AskUserQuestion",
  description: [
    "Asks the user 1 to 4 multiple-choice questions and waits for the answers.",
    "- Use it when a choice is the user's to make (a library, an approach, what to include) and you cannot settle it by reading the code.",
    "- Each question has a short header, 2 to 4 options (a label and what it means), and multiSelect when several options may be chosen. The user can always answer in their own words instead, so do not add an 'Other' option.",
    "- Put a recommended option first and say so in its label.",
    "- In plan mode, ask before you finish the plan, not to approve it: ExitPlanMode does that.",
  ].join("\n"),
  inputSchema: SCHEMA,
  readOnly: true,
  asksPermission: true,
  async run(input) {
    const questions = parseQuestions(input);
    const answers = input.answers;
    if (!answers || typeof answers !== "object") throw new ToolError("The questions were not answered.");
    const given = answers as Record<string, unknown>;
    const parts = questions.map((q) => `"${q.question}"="${typeof given[q.question] === "string" ? given[q.question] : "(no answer)"}"`);
    return { content: `The user answered your questions: ${parts.join(", ")}. Go on with these answers in mind.` };
  },
};
