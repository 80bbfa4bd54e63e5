/**
 * A `Bash(…)` specifier against one simple command of the syntax tree (bash-tree.ts), failing
 * closed: a word that is not a plain literal (a variable, a substitution, a glob, braces, ANSI-C
 * quoting) may be anything, so a deny or ask rule whose words reach it matches, and an allow rule
 * whose words reach it does not. The specifier syntax is bash-rules.ts's.
 */
import { SAFE_ASSIGNS, specRegExp } from "../bash-rules.ts";
import type { ShellCommand } from "./tree.ts";

/** The literal words a specifier compares (`git push:*` → git, push), and whether it holds a `*` inside. */
function specWords(spec: string): { words: string[]; open: boolean; inner: boolean } {
  const open = spec.endsWith(":*") || spec.endsWith(" *") || spec === "*";
  const body = open ? spec.slice(0, -2) : spec;
  return { words: body.split(/\s+/).filter(Boolean), open, inner: body.includes("*") };
}

const base = (program: string) => program.split("/").at(-1)!;

/** Deny and ask rules: the command as written, without quotes, or by its program's base name; or a word it cannot know. */
export function denyMatches(spec: string, part: ShellCommand): boolean {
  const re = specRegExp(spec);
  if (re.test(part.text) || re.test(part.plain)) return true;
  const [program, ...rest] = part.plain.split(" ");
  if (program !== undefined && base(program) !== program && re.test([base(program), ...rest].join(" "))) return true;
  return part.unknownAt >= 0 && couldMatch(spec, part);
}

/** Whether the command's words before its first unknown one leave room for `spec` to match. */
function couldMatch(spec: string, part: ShellCommand): boolean {
  const { words, open, inner } = specWords(spec);
  if (inner) return true;
  const k = part.unknownAt;
  for (let i = 0; i < Math.min(k, words.length); i++) {
    const value = part.words[i]!.value!;
    if (value !== words[i] && !(i === 0 && base(value) === words[i])) return false;
  }
  // Every compared word agreed: an unknown word before the end of the specifier may complete it;
  // after it, a prefix rule has matched already, and an exact one matches if the unknown words are empty.
  return k <= words.length || open;
}

/** Allow rules: the command exactly as written, only known-safe assignments before it, and no unknown word the rule compares. */
export function allowMatches(spec: string, part: ShellCommand): boolean {
  if (!part.assigns.every((a) => SAFE_ASSIGNS.test(a))) return false;
  if (!specRegExp(spec).test(part.text)) return false;
  if (part.unknownAt < 0) return true;
  const { words, open, inner } = specWords(spec);
  return !inner && open && part.unknownAt >= words.length;
}
