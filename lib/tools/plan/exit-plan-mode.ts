/**
 * ExitPlanMode (Claude Code's name and input schema, sdk-tools.d.ts `ExitPlanModeInput`): the
 * model hands its plan to the user. The approval is the call's permission question (the session
 * shows the plan and asks; host mode sends `can_use_tool`), asked in plan mode only; outside it
 * the call is refused before it runs (policy/user-tools.ts). Once approved, the tool reads the
 * plan file and tells the model to carry the plan out. Offered in the session and host mode, never in -p.
 */
import { readFileSync } from "node:fs";
import type { Tool } from "../tool.ts";

/** Reads the plan: the plan file's text, or undefined when there is none yet. */
export function readPlan(planFile: string): string | undefined {
  try {
    return readFileSync(planFile, "utf8");
  } catch {
    return undefined;
  }
}

/** The tool, reading the plan from `planFile()`. */
export function exitPlanModeTool(planFile: () => string): Tool {
  return {
    name: "ExitPlanMode",
    description: [
      "Hands your plan to the user for approval, while plan mode is on.",
      "- Write the plan to the plan file named in plan mode's note first; this tool takes no plan text, the user reads that file.",
      "- Call it only when the plan is complete and you are ready to carry it out; not for research or questions (ask those with AskUserQuestion).",
      "- The user approves (plan mode ends and you go on to carry the plan out) or asks you to keep planning, with their feedback in the refusal.",
    ].join("\n"),
    inputSchema: {
      type: "object",
      properties: {
        allowedPrompts: {
          type: "array",
          description: "Deprecated: no longer used.",
          items: {
            type: "object",
            properties: { tool: { type: "string", enum: ["Bash"] }, prompt: { type: "string" } },
            required: ["tool", "prompt"],
          },
        },
      },
    },
    asksPermission: true,
    async run() {
      const file = planFile();
      const plan = readPlan(file);
      const saved = plan === undefined ? "" : ` The plan is saved at ${file}.`;
      return { content: `The user approved the plan and plan mode is off. Carry the plan out now, step by step.${saved}` };
    },
  };
}
