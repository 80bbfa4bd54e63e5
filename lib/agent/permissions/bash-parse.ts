/**
 * One shell tokenizer for Bash permission rules (Claude Code permissions.md, "Bash"): splits a
 * command line at `&&`, `||`, `;`, `|`, `|&`, `&` and newlines, strips leading `NAME=value`
 * assignments, control keywords and harmless wrappers (`timeout`, `nice`…), and finds what no
 * rule can vouch for: `$(…)`, backticks, process substitution, subshells, variables, `eval`,
 * `sh -c`, and wrappers that run another command (`xargs`, `env`, `sudo`, `nohup`…). Commands
 * nested in those are parsed too, so that a deny rule still sees them. Nothing is ever evaluated.
 */

/** One simple command as the rules see it. */
export interface BashPart {
  /** The words as written (quotes kept), joined by single spaces: what allow rules match. */
  text: string;
  /** The words with quotes and escapes removed: deny and ask rules match this too. */
  plain: string;
  /** Found inside a substitution, `sh -c`, `eval` or a wrapper, not written at the top level. */
  nested: boolean;
  /** Starts with `NAME=value` assignments (stripped from text and plain). */
  assigns: string[];
}

export interface ParsedBash {
  parts: BashPart[];
  /** Why no allow rule may match this command (Claude Code's wording where it has one), if any reason. */
  unsafe?: string;
}

export const NESTED = "A nested command in this command can't be checked before it runs";
export const VARIABLE = "A variable in this command can't be checked before it runs";
export const OPERATORS = "This command uses shell operators that require approval for safety";
export const WRAPPER = "This command runs another command through a wrapper that can't be checked before it runs";

interface Word {
  raw: string;
  value: string;
}

/** Stripped before matching, for allow and deny alike: they run the command that follows, unchanged (Claude Code strips them too). */
const TRANSPARENT = new Set(["time", "timeout", "nice", "stdbuf", "command", "builtin", "noglob", "ionice"]);
/** Run another command in a way no rule vouches for: never allowed, their command still checked against deny. */
const WRAPPERS = new Set([
  "xargs",
  "env",
  "sudo",
  "doas",
  "su",
  "nohup",
  "exec",
  "setsid",
  "watch",
  "chroot",
  "flock",
  "unshare",
  "nsenter",
  "runuser",
  "parallel",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "busybox"]);
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "case",
  "esac",
  "!",
  "{",
  "}",
  "in",
  "select",
  "function",
]);
/** Options of wrappers that take a value (`sudo -u root`, `timeout -s KILL 5`, `nice -n 10`). */
const OPTION_ARGS = new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-s", "-k", "-n", "-I", "-L", "-P", "-d", "-E", "-a", "-i", "-o", "-e"]);

/** Parses `command`; never throws (an unclosed quote keeps what it opened). */
export function parseBash(command: string, depth = 0): ParsedBash {
  const out: ParsedBash = { parts: [] };
  const flag = (why: string) => {
    out.unsafe ??= why;
  };
  for (const words of splitCommands(command, flag, (inner) => nest(out, inner, depth))) addPart(out, words, false, depth, flag);
  return out;
}

function nest(out: ParsedBash, inner: string, depth: number): void {
  out.unsafe ??= NESTED;
  // Past this depth the text is still matched as a whole by the caller; deeper nesting is pathological.
  if (depth > 8) return;
  for (const part of parseBash(inner, depth + 1).parts) out.parts.push({ ...part, nested: true });
}

/** Records one simple command, after stripping assignments, keywords and transparent wrappers, and unwrapping the others. */
function addPart(out: ParsedBash, input: Word[], nested: boolean, depth: number, flag: (why: string) => void): void {
  let words = input;
  const assigns: string[] = [];
  for (;;) {
    const w = words[0];
    if (!w) break;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w.raw)) assigns.push(w.value.slice(0, w.value.indexOf("=")));
    else if (KEYWORDS.has(w.raw)) flag(OPERATORS);
    else if (TRANSPARENT.has(w.value)) words = skipOptions(words, w.value === "timeout" ? 1 : 0);
    else break;
    if (words[0] === w) words = words.slice(1);
  }
  if (!words.length) return;
  const name = words[0]!.value.split("/").at(-1)!;
  if (name === "eval") {
    flag(NESTED);
    nestText(
      out,
      words
        .slice(1)
        .map((w) => w.value)
        .join(" "),
      depth,
    );
  } else if (SHELLS.has(name) && words.some((w) => /^-[a-z]*c[a-z]*$/.test(w.value))) {
    flag(NESTED);
    const at = words.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w.value));
    if (words[at + 1]) nestText(out, words[at + 1]!.value, depth);
  } else if (WRAPPERS.has(name)) {
    flag(WRAPPER);
    let rest = skipOptions(words, 0);
    while (rest[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].raw)) rest = rest.slice(1);
    if (rest.length) addPart(out, rest, true, depth, flag);
  }
  out.parts.push({ text: words.map((w) => w.raw).join(" "), plain: words.map((w) => w.value).join(" "), nested, assigns });
}

function nestText(out: ParsedBash, text: string, depth: number): void {
  if (depth > 8) return;
  for (const part of parseBash(text, depth + 1).parts) out.parts.push({ ...part, nested: true });
}

/** The words after `words[0]` and its options (and `positional` more words, such as timeout's duration). */
function skipOptions(words: Word[], positional: number): Word[] {
  let i = 1;
  while (i < words.length && words[i]!.value.startsWith("-") && words[i]!.value !== "-") {
    if (words[i]!.value === "--") {
      i++;
      break;
    }
    i += OPTION_ARGS.has(words[i]!.value) ? 2 : 1;
  }
  return words.slice(Math.min(i + positional, words.length));
}

/**
 * The simple commands of `text` as words, split at the control operators. Substitutions are
 * handed to `onNested`; a subshell or variable calls `flag`.
 */
function splitCommands(text: string, flag: (why: string) => void, onNested: (inner: string) => void): Word[][] {
  const commands: Word[][] = [];
  let words: Word[] = [];
  let raw = "";
  let value = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push({ raw, value });
    raw = "";
    value = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  const take = (r: string, v = r) => {
    raw += r;
    value += v;
    inWord = true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === "\\") {
      if (next !== undefined && next !== "\n") take(c + next, next);
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const close = end < 0 ? text.length : end;
      take(text.slice(i, close + 1), text.slice(i + 1, close));
      i = close;
    } else if (c === '"') {
      i = doubleQuoted(text, i, take, flag, onNested);
    } else if (c === "$" || c === "`" || ((c === "<" || c === ">") && next === "(")) {
      i = expansion(text, i, take, flag, onNested);
    } else if (c === "#" && !inWord) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
    } else if (c === "(" || c === ")") {
      flag(OPERATORS);
      endCommand();
    } else if (c === ";" || c === "\n" || c === "|" || (c === "&" && next !== ">" && !raw.endsWith(">") && !raw.endsWith("<"))) {
      if ((c === "|" && (next === "|" || next === "&")) || (c === "&" && next === "&") || (c === ";" && next === ";")) i++;
      endCommand();
    } else if (c === " " || c === "\t" || c === "\r") {
      endWord();
    } else {
      take(c);
    }
  }
  endCommand();
  return commands;
}

/** A `"…"` string from `start`; returns the index of its closing quote. */
function doubleQuoted(
  text: string,
  start: number,
  take: (r: string, v?: string) => void,
  flag: (why: string) => void,
  onNested: (inner: string) => void,
): number {
  take('"', "");
  let i = start + 1;
  for (; i < text.length && text[i] !== '"'; i++) {
    const c = text[i]!;
    if (c === "\\" && i + 1 < text.length) {
      const n = text[i + 1]!;
      take(c + n, '"\\$`\n'.includes(n) ? n : c + n);
      i++;
    } else if (c === "$" || c === "`") {
      i = expansion(text, i, take, flag, onNested);
    } else {
      take(c);
    }
  }
  take('"', "");
  return i;
}

/** `$…`, a backtick string or `<(…)`/`>(…)` at `start`; returns the index of its last character. */
function expansion(text: string, start: number, take: (r: string, v?: string) => void, flag: (why: string) => void, onNested: (inner: string) => void): number {
  const c = text[start]!;
  const next = text[start + 1];
  if (c === "`") {
    let end = start + 1;
    while (end < text.length && text[end] !== "`") end += text[end] === "\\" ? 2 : 1;
    onNested(text.slice(start + 1, end));
    take(text.slice(start, end + 1));
    return end;
  }
  if (next === "(") {
    const end = matchingParen(text, start + 1);
    const inner = text.slice(start + 2, end);
    // `$((…))` is arithmetic, which can still hold substitutions: treat its insides as a command too.
    onNested(inner.startsWith("(") ? inner.slice(1, -1) : inner);
    take(text.slice(start, end + 1));
    return end;
  }
  if (c === "$" && next !== undefined && /[A-Za-z0-9_{@*#?$!-]/.test(next)) {
    flag(VARIABLE);
    let end = start + 1;
    if (next === "{") end = Math.max(text.indexOf("}", start), start + 1);
    else while (end + 1 < text.length && /[A-Za-z0-9_]/.test(text[end + 1]!)) end++;
    take(text.slice(start, end + 1));
    return end;
  }
  take(c);
  return start;
}

/** Index of the `)` closing the `(` at `open`, skipping quotes and nested parentheses; the text's end when unclosed. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "'") i = Math.max(text.indexOf("'", i + 1), i);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return text.length;
}
