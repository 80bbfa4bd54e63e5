/**
 * Where plan mode's plan is written: `~/.claude/plans/<slug>.md` (the Claude home's `plans` folder,
 * `$CLAUDE_CONFIG_DIR` respected), as Claude Code keeps it, with a slug of three random words chosen
 * once per process, so every turn and subagent of a run writes the same file.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";

const FIRST = ["bold", "calm", "keen", "quiet", "brisk", "gentle", "steady", "clever", "sunny", "lucid", "nimble", "patient"];
const SECOND = ["amber", "cobalt", "silver", "maple", "coral", "misty", "rustic", "velvet", "hazel", "ivory", "crimson", "golden"];
const THIRD = ["otter", "falcon", "harbor", "meadow", "lantern", "compass", "orchard", "summit", "beacon", "river", "garden", "anchor"];

let slug: string | undefined;

const pick = (words: string[]) => words[Math.floor(Math.random() * words.length)]!;

/** This run's plan slug (`keen-cobalt-harbor`). */
export function planSlug(): string {
  slug ??= `${pick(FIRST)}-${pick(SECOND)}-${pick(THIRD)}`;
  return slug;
}

/** The folder plans live in. */
export function plansDir(env: Record<string, string | undefined> = process.env): string {
  return join(userConfigDir(env), "plans");
}

/** This run's plan file. */
export function planFilePath(env: Record<string, string | undefined> = process.env): string {
  return join(plansDir(env), `${planSlug()}.md`);
}

/** Why the plan file may not be written where it is (a symbolic link, or a linked plans folder); undefined when it may. */
export function planFileLinkProblem(path: string): string | undefined {
  for (const p of [join(path, ".."), path]) {
    try {
      if (lstatSync(p).isSymbolicLink()) return `${p} is a symbolic link; plan mode writes the plan only to a regular file`;
    } catch {
      // Missing: Write creates it.
    }
  }
  return undefined;
}
