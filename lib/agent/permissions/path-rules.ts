/**
 * Read and Edit rule specifiers (Claude Code permissions.md, "Read & Edit"): gitignore-style
 * patterns with Claude Code's anchors. `//x` is absolute, `~/x` is in the home folder, `/x` is
 * relative to the settings file's root (the project for project files, `~/.claude` for the user
 * file), `./x` and bare `x` are relative to the working directory. As in gitignore, a pattern
 * without a slash matches at any depth, and a pattern that matches a folder covers what is in it.
 */
import { dirname, resolve } from "node:path";
import { realPath } from "./real-path.ts";

export interface PathContext {
  cwd: string;
  home: string;
  /** The settings file's root, for `/x`. */
  root: string;
}

/** A compiled path pattern: `matches(absolutePath)`. */
export interface PathPattern {
  /** The absolute glob the specifier stands for. */
  glob: string;
  matches(path: string): boolean;
}

/** Compiles a specifier; never throws (an odd pattern simply matches little). */
export function compilePathPattern(spec: string, ctx: PathContext): PathPattern {
  let base: string;
  let rest: string;
  if (spec.startsWith("//")) [base, rest] = ["/", spec.slice(2)];
  else if (spec.startsWith("~/")) [base, rest] = [ctx.home, spec.slice(2)];
  else if (spec.startsWith("/")) [base, rest] = [ctx.root, spec.slice(1)];
  else if (spec.startsWith("./")) [base, rest] = [ctx.cwd, spec.slice(2)];
  else [base, rest] = [ctx.cwd, spec];
  if (rest.endsWith("/")) rest += "**";
  // gitignore: a pattern with no slash but a trailing one matches a name at any depth.
  const anchored = rest.includes("/") || spec.startsWith("/") || spec.startsWith("~/") || spec.startsWith("./");
  const glob = `${base.replace(/\/$/, "")}/${anchored ? "" : "**/"}${rest}`;
  const re = globToRegExp(glob);
  return { glob, matches: (path) => coveredBy(path, re) };
}

/** True when `path` or a folder above it matches `re`. */
function coveredBy(path: string, re: RegExp): boolean {
  for (let p = path; ; p = dirname(p)) {
    if (re.test(p)) return true;
    if (dirname(p) === p) return false;
  }
}

/** The absolute paths a tool's path argument stands for: as resolved against cwd, and its real path when a link leads elsewhere (also for a new file). */
export function candidatePaths(value: string, cwd: string, home: string): string[] {
  const expanded = value === "~" ? home : value.startsWith("~/") ? `${home}/${value.slice(2)}` : value;
  const abs = resolve(cwd, expanded);
  // A file not there yet is judged where it will land: through linked folders and a dangling link (permissions/real-path.ts).
  const real = realPath(abs);
  return real === abs ? [abs] : [abs, real];
}

/**
 * A glob as a regular expression over absolute paths: `**` any depth (a `/**` at the end also
 * matches the folder itself), `*` within one name, `?` one character, `[…]` a class, `{a,b}` choices.
 * Dotfiles match like any other name: a deny rule must not miss `.env`.
 */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      const slashAfter = glob[i + 2] === "/";
      if (re.endsWith("/") && (slashAfter || i + 2 === glob.length)) {
        re = `${re.slice(0, -1)}(?:/.*)?${slashAfter ? "/" : ""}`;
        i += slashAfter ? 2 : 1;
      } else {
        re += ".*";
        i++;
      }
    } else if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = glob.indexOf("}", i + 1);
      if (end < 0) re += "\\{";
      else {
        re += `(?:${glob
          .slice(i + 1, end)
          .split(",")
          .map((s) => s.replace(/[.+^$()|\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
          .join("|")})`;
        i = end;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}
