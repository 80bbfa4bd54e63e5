/**
 * The related-task `_meta` key (MCP 2025-11-25, basic/utilities/tasks §Related Task Metadata,
 * §Associating Task-Related Messages): a server's request made for one of its tasks carries it,
 * and our answer to that request carries it back. Pure: no I/O.
 */
import { isObject } from "../../shared/values.ts";

/** `_meta` key tying a message to its task. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/**
 * The result of a server's request with related-task `_meta`, given the same tag (responses
 * related to a task MUST carry it). Others are returned as they are.
 */
export function tagRelated(params: unknown, result: unknown): unknown {
  const meta = isObject(params) && isObject(params._meta) ? params._meta[RELATED_TASK] : undefined;
  if (!isObject(meta) || typeof meta.taskId !== "string" || !isObject(result)) return result;
  return { ...result, _meta: { ...(isObject(result._meta) ? result._meta : {}), [RELATED_TASK]: { taskId: meta.taskId } } };
}
