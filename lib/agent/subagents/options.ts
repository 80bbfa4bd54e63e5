/**
 * What the CLI says about subagents, and the error of a bad `--agents` value: kept apart from
 * setup.ts so that a run which never offers the Agent tool loads none of the subagents' code
 * (agent files, their YAML front matter) at start-up.
 */
import { InputError } from "../input/input-shapes.ts";

/** What the CLI says about subagents for this run. */
export interface SubagentOptions {
  mode: "print" | "session" | "host";
  /** `--allowedTools` entries. */
  allowedTools: readonly string[];
  /** `--agents`: JSON text, or with -p a file holding it. */
  flag?: string;
  /** The Agent SDK's `agents` option. */
  sdk?: Record<string, unknown>;
  /** Which folders give agents (`--setting-sources`); default both. */
  sources?: { user?: boolean; project?: boolean };
}

/** A bad `--agents` value: one line, and the run does not start. */
export class AgentsOptionError extends InputError {}
