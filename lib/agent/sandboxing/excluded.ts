/**
 * `sandbox.excludedCommands`: Bash rule patterns (`docker:*`, `npm run *`) whose commands run outside
 * the sandbox, as Claude Code defines them: on the shell grammar, every simple command of a pipe or
 * chain must match, with allow rules' strictness; a call with `cd`, a substitution, a variable, a
 * nested or wrapped command, an output redirect (`time -o` included), or one that does not parse stays sandboxed.
 */
import { analyzeBash } from "../permissions/bash/tree.ts";
import { allowMatches } from "../permissions/bash/match.ts";
import { timeOutputs } from "../permissions/bash/files.ts";

/** Patterns as written in the settings: `Bash(x)` or `x`. */
function specOf(pattern: string): string {
  const m = /^\s*Bash\s*\((.*)\)\s*$/s.exec(pattern);
  return (m ? m[1]! : pattern).trim();
}

/** True when `command` runs outside the sandbox by `patterns`; needs the shell grammar loaded (else false: sandboxed). */
export function excludedFromSandbox(command: string, patterns: string[]): boolean {
  if (!patterns.length) return false;
  const analysis = analyzeBash(command);
  if (!analysis || analysis.unsafe || analysis.opaque) return false;
  if (analysis.redirects.some((r) => !r.op.startsWith("<"))) return false;
  // /usr/bin/time after another wrapper writes its -o file itself: outside, that write would be unchecked.
  if (analysis.parts.some((p) => p.transparent && p.words[0]?.value?.split("/").at(-1) === "time" && timeOutputs(p.words).length)) return false;
  const parts = analysis.parts.filter((p) => !p.transparent);
  if (!parts.length || parts.some((p) => p.nested || p.words[0]?.value === "cd" || p.words[0]?.raw === "cd")) return false;
  const specs = patterns.map(specOf);
  return parts.every((part) => specs.some((spec) => allowMatches(spec, part)));
}
