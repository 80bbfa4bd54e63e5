/**
 * Whether a `Bash(…)` specifier matches one simple command (Claude Code permissions.md, "Bash"):
 * `prefix:*` matches the prefix alone or followed by a space and anything (`qux:*` does not match
 * `quxx`); `*` matches anything at any position, and a trailing ` *` is the same word boundary;
 * anything else is the exact command. Verified side by side with Claude Code 2.1.328.
 */
import type { BashPart } from "./bash-parse.ts";

/** Assignments Claude Code lets through before an allowed command: they change no code that runs. */
export const SAFE_ASSIGNS = /^(LANG|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CI|TERM|COLUMNS|NODE_ENV|RUST_BACKTRACE|PYTHONUNBUFFERED|GIT_PAGER|PAGER)$/;

const compiled = new Map<string, RegExp>();

/** The specifier as an anchored regular expression, compiled once per text. */
export function specRegExp(spec: string): RegExp {
  let re = compiled.get(spec);
  if (re) return re;
  const literal = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  if (spec.endsWith(":*")) {
    re = new RegExp(`^${literal(spec.slice(0, -2)).replace(/\*/g, ".*")}(?:\\s.*)?$`, "s");
  } else if (spec.includes("*")) {
    const boundary = spec.endsWith(" *");
    const body = boundary ? spec.slice(0, -2) : spec;
    re = new RegExp(`^${literal(body).replace(/\*/g, ".*")}${boundary ? "(?:\\s.*)?" : ""}$`, "s");
  } else {
    re = new RegExp(`^${literal(spec)}$`, "s");
  }
  compiled.set(spec, re);
  return re;
}

/**
 * `strict` (allow rules): the command as written must match, and only known-safe assignments may
 * precede it. `loose` (deny and ask rules): the command as written, without its quotes, or with its
 * program's folder dropped (`/bin/rm` for `rm`) matching is enough.
 */
export function bashPartMatches(spec: string, part: BashPart, mode: "strict" | "loose"): boolean {
  const re = specRegExp(spec);
  if (mode === "strict") return part.assigns.every((a) => SAFE_ASSIGNS.test(a)) && re.test(part.text);
  if (re.test(part.text) || re.test(part.plain)) return true;
  const [program, ...rest] = part.plain.split(" ");
  const base = program?.split("/").at(-1);
  return base !== program && re.test([base, ...rest].join(" "));
}

/** The whole command line, whitespace collapsed, against a specifier (an exact rule over a compound command). */
export function bashWholeMatches(spec: string, command: string): boolean {
  return specRegExp(spec).test(command.trim().replace(/\s+/g, " "));
}
