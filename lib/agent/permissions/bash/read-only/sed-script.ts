/**
 * Whether a sed script only prints, for the read-only classifier: it is read by a small scanner of
 * sed's grammar (addresses, `!`, `{ }`, commands), and accepted only when every command is one that
 * reads and prints (`p`, `d`, `q`, `n`, `=`, `l`, hold space, `s///` and `y///` without the `w` or
 * `e` flag). `w`, `W`, `r`, `R`, `e`, `s///w` and `s///e` write a file or run a command; anything the
 * scanner does not know refuses.
 */

/** Commands that take no argument and neither write nor run anything. */
const PLAIN = new Set(["p", "P", "d", "D", "n", "N", "g", "G", "h", "H", "x", "z", "=", "l", "F"]);
/** Commands with an optional exit code (`q5`). */
const EXIT = new Set(["q", "Q"]);
/** Branches and labels: `b label`, `t`, `T`, `:label`. */
const LABELLED = new Set(["b", "t", "T", ":"]);

/** Undefined when the script only reads and prints; else why not. */
export function sedScriptProblem(script: string): string | undefined {
  let i = 0;
  const s = script;
  const skipBlank = () => {
    while (i < s.length && /[\s;]/.test(s[i]!)) i++;
  };
  /** Reads a delimited part (`/re/`) from just after the delimiter; false when it never ends. */
  const delimited = (delim: string): boolean => {
    while (i < s.length && s[i] !== delim) {
      if (s[i] === "\\") i++;
      if (s[i] === "\n") return false;
      i++;
    }
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (/\d/.test(s[i] ?? "")) {
      while (/[\d~]/.test(s[i] ?? "")) i++;
      return true;
    }
    if (s[i] === "$") {
      i++;
      return true;
    }
    if (s[i] === "/" || s[i] === "\\") {
      const delim = s[i] === "\\" ? s[++i] : "/";
      if (delim === undefined) return false;
      i++;
      if (!delimited(delim)) return false;
      while (/[IM]/.test(s[i] ?? "")) i++;
      return true;
    }
    return true;
  };
  for (;;) {
    skipBlank();
    if (i >= s.length) return undefined;
    if (!address()) return "sed: an address is not closed";
    if (s[i] === ",") {
      i++;
      if (s[i] === "+" || s[i] === "~") i++;
      if (!address()) return "sed: an address is not closed";
    }
    while (s[i] === " " || s[i] === "!") i++;
    const command = s[i++];
    if (command === undefined) return "sed: an address without a command";
    if (command === "{" || command === "}" || PLAIN.has(command)) continue;
    if (EXIT.has(command)) {
      while (/[\d ]/.test(s[i] ?? "")) i++;
      continue;
    }
    if (LABELLED.has(command)) {
      while (i < s.length && s[i] !== ";" && s[i] !== "\n") i++;
      continue;
    }
    if (command === "s" || command === "y") {
      const delim = s[i++];
      if (delim === undefined || delim === "\\" || delim === "\n") return `sed: a malformed ${command} command`;
      if (!delimited(delim) || !delimited(delim)) return `sed: a malformed ${command} command`;
      if (command === "s") {
        while (i < s.length && /[gpiImM0-9]/.test(s[i]!)) i++;
        if (s[i] === "w" || s[i] === "e") return `sed: the s command's ${s[i]} flag ${s[i] === "w" ? "writes a file" : "runs a command"}`;
      }
      if (i < s.length && !/[\s;}]/.test(s[i]!)) return `sed: unexpected "${s[i]}" after the ${command} command`;
      continue;
    }
    if ("wWrRe".includes(command))
      return `sed: the ${command} command ${"wW".includes(command) ? "writes a file" : command === "e" ? "runs a command" : "reads a file into the output"}`;
    return `sed: the command "${command}" is not known to be read-only`;
  }
}
