/**
 * Syntax colour for fenced code in the terminal: one small tokenizer (comments, strings, numbers,
 * keywords) that suits the C family, Python, shell, Rust, Go and JSON alike. It only adds SGR
 * codes: the text of every line is kept exactly as written.
 */
import type { Style } from "./style.ts";

const KEYWORDS = new Set(
  (
    "as async await break case catch class const continue def default defer del do done elif else enum esac export extends " +
    "false fi fn for from func function go if impl implements import in interface is lambda let loop match mod mut new nil " +
    "None null of package pass pub raise return self static struct super switch then this throw True true try type typeof " +
    "undefined use var void while with yield echo local readonly"
  ).split(" "),
);

/** Languages whose line comments start with `#` (the others use `//`). */
const HASH_COMMENTS = new Set([
  "py",
  "python",
  "sh",
  "bash",
  "zsh",
  "shell",
  "console",
  "rb",
  "ruby",
  "yaml",
  "yml",
  "toml",
  "perl",
  "r",
  "make",
  "makefile",
  "dockerfile",
]);

const TOKEN =
  /(\/\*.*?\*\/)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b)|([A-Za-z_$][\w$]*)/gi;

/** `line` of code in `lang` with colour added (unchanged without colour). */
export function highlightLine(line: string, lang: string, style: Style): string {
  if (!style.enabled) return line;
  const comment = HASH_COMMENTS.has(lang.toLowerCase()) ? "#" : "//";
  const at = commentStart(line, comment);
  const code = at < 0 ? line : line.slice(0, at);
  const colored = code.replace(TOKEN, (m, block, str, num, word) => {
    if (block) return style.dim(m);
    if (str) return style.green(m);
    if (num) return style.yellow(m);
    if (word && KEYWORDS.has(word)) return style.magenta(m);
    return m;
  });
  return at < 0 ? colored : colored + style.dim(line.slice(at));
}

/** Where a line comment starts, outside string literals; -1 when there is none. */
function commentStart(line: string, marker: string): number {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === "`") {
      quote = c;
    } else if (line.startsWith(marker, i) && (marker !== "#" || i === 0 || /\s/.test(line[i - 1]!))) {
      return i;
    }
  }
  return -1;
}
