/**
 * One program's options against its allow-list, for the read-only classifier (read-only.ts): short
 * letters (clusters such as `-la`), letters that take a value (`-n 5`, `-n5`), long options (`--all`,
 * `--max-count=3`, `--max-count 3`) and `--`. An option the list does not name refuses the command:
 * an abbreviation (`--out` for `--output`) included, so a new or rare option never slips through.
 */

/** A program's options: long entries are `name` (no value), `name=` (a value) or `name?` (an optional `=value`). */
export interface OptionSpec {
  short?: string;
  /** Short letters that take a value, attached (`-n5`) or as the next word. */
  shortValue?: string;
  /** Short letters whose value can only be attached (`-U3`, `-M50%`). */
  shortOptional?: string;
  long?: readonly string[];
  /** `-5` (head, git log) is an option. */
  numeric?: boolean;
  /** At most this many operands (uniq's second operand is an output file). */
  maxOperands?: number;
  /** Every word is an operand, options included (echo, printf, test). */
  anyArgs?: boolean;
}

/** What parsing found: the operands and every option given, in order (long ones by name, short ones as `-x`), or why it refused. */
export type Parsed = { operands: string[]; options: [string, string | true][] } | { refused: string };

/** Parses `args` (the words after the program) by `spec`. */
export function parseOptions(program: string, args: readonly string[], spec: OptionSpec): Parsed {
  const options: [string, string | true][] = [];
  const operands: string[] = [];
  if (spec.anyArgs) return { operands: [...args], options };
  const long = new Map<string, "none" | "value" | "optional">();
  for (const entry of spec.long ?? []) {
    if (entry.endsWith("=")) long.set(entry.slice(0, -1), "value");
    else if (entry.endsWith("?")) long.set(entry.slice(0, -1), "optional");
    else long.set(entry, "none");
  }
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (word === "-" || !word.startsWith("-")) {
      operands.push(word);
      continue;
    }
    if (word.startsWith("--")) {
      const eq = word.indexOf("=");
      const name = eq < 0 ? word.slice(2) : word.slice(2, eq);
      const kind = long.get(name);
      if (kind === undefined) return { refused: `${program}: option --${name} is not known to be read-only` };
      if (kind === "none" && eq >= 0) return { refused: `${program}: option --${name} takes no value` };
      if (kind === "value" && eq < 0) {
        if (i + 1 >= args.length) return { refused: `${program}: option --${name} needs a value` };
        options.push([name, args[++i]!]);
      } else options.push([name, eq < 0 ? true : word.slice(eq + 1)]);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(word)) {
      options.push(["-n", word.slice(1)]);
      continue;
    }
    for (let k = 1; k < word.length; k++) {
      const letter = word[k]!;
      if (spec.shortValue?.includes(letter)) {
        const rest = word.slice(k + 1);
        if (rest) options.push([`-${letter}`, rest]);
        else if (i + 1 < args.length) options.push([`-${letter}`, args[++i]!]);
        else return { refused: `${program}: option -${letter} needs a value` };
        break;
      }
      if (spec.shortOptional?.includes(letter)) {
        options.push([`-${letter}`, word.slice(k + 1) || true]);
        break;
      }
      if (!spec.short?.includes(letter)) return { refused: `${program}: option -${letter} is not known to be read-only` };
      options.push([`-${letter}`, true]);
    }
  }
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) {
    return { refused: `${program}: more than ${spec.maxOperands} operand${spec.maxOperands === 1 ? "" : "s"} (a further one may be written to)` };
  }
  return { operands, options };
}
