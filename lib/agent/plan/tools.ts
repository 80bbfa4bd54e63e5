/**
 * The tools of plan mode, the task list and questions, built for the agent: ExitPlanMode reads this
 * run's plan file; the task list (task-list/task-list.ts) is this session's. Whether the model is offered them is offered-tools.ts's one rule (never -p for
 * ExitPlanMode and AskUserQuestion; the task list in -p only when asked).
 */
import type { Tool } from "../../tools/tool.ts";
import { exitPlanModeTool } from "../../tools/plan/exit-plan-mode.ts";
import { planFilePath } from "./plan-file.ts";
import { taskTools } from "../task-list/task-list.ts";
import { askUserQuestionTool } from "../../tools/ask-user/ask-user-question.ts";

/** Built once per run. */
export function planTools(): Tool[] {
  return [exitPlanModeTool(() => planFilePath()), askUserQuestionTool, ...taskTools()];
}
