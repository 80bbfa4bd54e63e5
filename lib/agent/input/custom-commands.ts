/**
 * Custom slash commands, as in Claude Code: Markdown files in `.claude/commands/` (project, under
 * the working directory) and `~/.claude/commands/` (user). `frontend/test.md` is `/frontend:test`.
 * An optional front matter block may give a `description`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { userConfigDir } from "../../shared/claude-home.ts";

export interface CustomCommand {
  name: string;
  description: string;
  scope: "project" | "user";
  path: string;
  body: string;
}

function commandDirs(cwd: string): { dir: string; scope: CustomCommand["scope"] }[] {
  const home = userConfigDir();
  return [
    { dir: join(cwd, ".claude", "commands"), scope: "project" },
    { dir: join(home, "commands"), scope: "user" },
  ];
}

function load(path: string, name: string, scope: CustomCommand["scope"]): CustomCommand {
  const raw = readFileSync(path, "utf8");
  const front = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(raw);
  const body = front ? raw.slice(front[0].length) : raw;
  const description =
    /^description:\s*(.*)$/m
      .exec(front?.[1] ?? "")?.[1]
      ?.trim()
      .replace(/^["']|["']$/g, "") ?? body.trim().split("\n")[0]!.slice(0, 80);
  return { name, description, scope, path, body };
}

/** The command `/name`, project first, then user; undefined when there is none. Reads one file. */
export function findCustomCommand(name: string, cwd: string): CustomCommand | undefined {
  if (!/^[\w.-]+(:[\w.-]+)*$/.test(name)) return undefined;
  for (const { dir, scope } of commandDirs(cwd)) {
    const path = join(dir, ...name.split(":")) + ".md";
    if (existsSync(path)) return load(path, name, scope);
  }
  return undefined;
}

/** Every custom command, for /help and completion (scans the folders; not on the start-up path). */
export function listCustomCommands(cwd: string): CustomCommand[] {
  const seen = new Map<string, CustomCommand>();
  for (const { dir, scope } of commandDirs(cwd)) {
    if (!existsSync(dir)) continue;
    for (const file of new Bun.Glob("**/*.md").scanSync({ cwd: dir })) {
      const name = file.slice(0, -3).split("/").join(":");
      if (!seen.has(name)) seen.set(name, load(join(dir, file), name, scope));
    }
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Fills a command body: `$ARGUMENTS` is the raw argument text, `$1`… the shell-split words.
 * Plain text substitution: nothing in the arguments is evaluated or re-expanded.
 */
export function expandCommand(body: string, rawArgs: string, words: string[]): string {
  const expanded = body.replace(/\$ARGUMENTS|\$(\d+)/g, (match, n?: string) => (n === undefined ? rawArgs : (words[Number(n) - 1] ?? "")));
  // A command that never mentions its arguments still receives them, as Claude Code does.
  return rawArgs && !/\$ARGUMENTS|\$\d/.test(body) ? `${expanded.trimEnd()}\n\nARGUMENTS: ${rawArgs}` : expanded;
}
