/**
 * Claude Code's `StructuredOutput` tool (`--json-schema`, the Agent SDK's `outputFormat`): its
 * input schema is the user's schema, verbatim; a call whose input matches it is the run's answer,
 * one that does not is an error result naming the path and the rule, so the model tries again.
 * One instance per turn: it counts that turn's failed calls against the retry limit.
 */
import type { CompiledSchema } from "./json-schema.ts";
import type { InputSchema, Tool, ToolOutput } from "./tool.ts";

export const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";

/** Invalid calls a turn may make before it ends in `error_max_structured_output_retries` (Claude Code's default). */
export const DEFAULT_STRUCTURED_OUTPUT_RETRIES = 5;

/** `MAX_STRUCTURED_OUTPUT_RETRIES` when it is a whole number ≥ 1, else the default. */
export function structuredOutputRetries(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.MAX_STRUCTURED_OUTPUT_RETRIES);
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_STRUCTURED_OUTPUT_RETRIES;
}

/** The user message sent once when the model ends its turn with text instead of calling the tool. */
export const STRUCTURED_OUTPUT_REMINDER = `This run must end with a call to the ${STRUCTURED_OUTPUT_TOOL} tool, and it has not been called yet. Call it now with your answer.`;

export class StructuredOutputCall {
  /** The first input that matched the schema; `accepted` says whether there is one. */
  value: unknown = null;
  accepted = false;
  failures = 0;
  readonly tool: Tool;

  constructor(
    schema: CompiledSchema,
    readonly maxFailures: number = structuredOutputRetries(),
  ) {
    this.tool = {
      name: STRUCTURED_OUTPUT_TOOL,
      description:
        "Returns your final answer in the structured format this run requires. Call this tool exactly once, at the very end, " +
        "with the answer as its input; the run ends when the input matches the schema.",
      inputSchema: schema.schema as InputSchema,
      readOnly: true,
      asksPermission: false,
      run: async (input): Promise<ToolOutput> => {
        if (this.accepted) return { content: "The structured output was already accepted." };
        const problem = schema.check(input);
        if (problem === undefined) {
          this.value = input;
          this.accepted = true;
          return { content: "Structured output accepted." };
        }
        this.failures++;
        const left = this.maxFailures - this.failures;
        return {
          isError: true,
          content: `The input does not match the required schema: ${problem}.${left > 0 ? ` Fix it and call ${STRUCTURED_OUTPUT_TOOL} again.` : ""}`,
        };
      },
    };
  }

  /** The turn has what it needs, or may not try again. */
  get finished(): boolean {
    return this.accepted || this.failures >= this.maxFailures;
  }

  get exhausted(): boolean {
    return !this.accepted && this.failures >= this.maxFailures;
  }
}
