/**
 * What `[a]lways` in the session's permission question saves, as Claude Code's "Yes, and don't ask
 * again" does (permissions.md): for Bash the command's prefix rule (`Bash(npm test:*)`), never for
 * a compound command, a substitution, a wrapper or a command that writes a file (a redirect, `tee`…);
 * for an MCP tool `mcp__server__tool` with the names as written; for WebFetch the call's host
 * (`WebFetch(domain:example.com)`); for Edit, Write and NotebookEdit, acceptEdits for the rest of the
 * session (not saved). Rules go
 * to the project's `.claude/settings.local.json` by a minimal, atomic edit that keeps every other key.
 */
import { hostOfInput } from "../../tools/web/domain-rule.ts";
import { join } from "node:path";
import { editJsonFile } from "../../files/json-edit.ts";
import { parseBash } from "./bash-parse.ts";
import { analyzeBash } from "./bash/tree.ts";
import { fileUse } from "./bash/files.ts";
import type { ToolRoute } from "./rules.ts";

export type Always = { rule: string; file: string } | { acceptEdits: true } | undefined;

/** Programs whose second word is a subcommand (`git status`, `npm test`): their rule keeps it. */
const SUBCOMMANDS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "make",
  "pip",
  "uv",
  "poetry",
  "dotnet",
  "gradle",
  "mvn",
  "deno",
  "gh",
]);

/** What `[a]lways` would keep for this call, or undefined when only yes or no can be offered. */
export function alwaysFor(cwd: string, toolName: string, input: Record<string, unknown>, route?: ToolRoute): Always {
  const file = join(cwd, ".claude", "settings.local.json");
  if (toolName === "Edit" || toolName === "Write" || toolName === "NotebookEdit") return { acceptEdits: true };
  // WebFetch: the call's host, as Claude Code saves it (a url that does not parse gets no always).
  if (toolName === "WebFetch") {
    const host = hostOfInput(input);
    return host ? { rule: `WebFetch(domain:${host.includes(":") ? `[${host}]` : host})`, file } : undefined;
  }
  if (route) return { rule: `mcp__${route.server}__${route.tool}`, file };
  if (toolName !== "Bash" || typeof input.command !== "string") return undefined;
  // On the shell grammar: a command that writes a file (`echo x > f`) gets no rule, which would let the program write anywhere.
  const tree = analyzeBash(input.command);
  if (!tree || fileUse(tree).writes.length) return undefined;
  const parsed = parseBash(input.command);
  const [part] = parsed.parts;
  if (tree.unsafe || parsed.unsafe || parsed.parts.length !== 1 || !part || part.assigns.length) return undefined;
  const words = part.text.split(" ");
  const keep = SUBCOMMANDS.has(words[0]!) && words[1] && /^[A-Za-z][\w:-]*$/.test(words[1]) ? 2 : 1;
  // A program run by path or with quotes is no prefix a person would recognise: ask each time.
  if (!/^[\w.+-]+$/.test(words[0]!)) return undefined;
  return { rule: `Bash(${words.slice(0, keep).join(" ")}:*)`, file };
}

/**
 * Adds `rule` to `permissions.allow` of `file` (created when missing), unless it is there already.
 * @throws ConfigWriteError when the file is not valid JSON or cannot be written.
 */
export function saveAllowRule(file: string, rule: string): void {
  editJsonFile(file, (doc) => {
    const allow = (doc as { permissions?: { allow?: unknown } } | undefined)?.permissions?.allow;
    const list = Array.isArray(allow) ? allow : [];
    if (list.includes(rule)) return [];
    return [{ path: ["permissions", "allow"], value: [...list, rule] }];
  });
}
