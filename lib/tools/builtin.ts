/**
 * The built-in tools, in the order they are offered to the model.
 */
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep/grep.ts";
import { readTool } from "./read.ts";
import type { Tool } from "./tool.ts";
import { writeTool } from "./write.ts";

/** Read, Write, Edit, Bash, Glob, Grep (Claude Code's names and input schemas). */
export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, bashTool, globTool, grepTool];
}
