/**
 * The files a Bash command reads and writes, as far as its words say (Read and Edit rules reach
 * into Bash through this): output redirections, `tee`, the destinations of `cp` and `mv` (and
 * what `mv` moves away), `sed -i` and `dd of=` are writes; input redirections, the common file
 * readers (`cat`, `head`, `tail`, `less`, `grep`/`rg` paths, `cp` sources, `source`…) are reads.
 * A path that is not a plain literal is kept as unknown, for the caller to fail closed on.
 * Interpreters, `find -delete`, scripts and anything a program opens by itself are beyond this.
 */
import type { BashAnalysis, ShellCommand, Word } from "./tree.ts";

export interface FileUse {
  reads: Word[];
  writes: Word[];
}

/** Output to these is no file change. */
const NOT_FILES = new Set(["/dev/null", "/dev/stderr", "/dev/stdout", "/dev/tty"]);
const WRITE_OPS = new Set([">", ">>", "&>", "&>>", ">|", ">&", "&>|"]);
const READ_OPS = new Set(["<", "<&"]);

/** Programs whose operands (after options) are files they read. */
const READERS = new Set([
  "cat",
  "head",
  "tail",
  "less",
  "more",
  "nl",
  "tac",
  "wc",
  "sort",
  "uniq",
  "cut",
  "strings",
  "xxd",
  "od",
  "hexdump",
  "base64",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "file",
  "diff",
  "cmp",
  "comm",
  "paste",
  "fold",
  "fmt",
  "column",
  "bat",
  "view",
  "source",
  ".",
]);
/** Programs whose first operand is a pattern or script and the rest files they read. */
const SEARCHERS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "sed", "jq"]);
/** Options of the searchers whose value is the next word (`-e PATTERN`, `-m 5`). */
// Only options that surely take one: a flag read as taking a value would hide the path after it.
const VALUE_OPTS = new Set([
  "-e",
  "-f",
  "-m",
  "-A",
  "-B",
  "-C",
  "-d",
  "-D",
  "-g",
  "-t",
  "-T",
  "-j",
  "-M",
  "--regexp",
  "--file",
  "--glob",
  "--type",
  "--type-not",
]);

const isDevice = (w: Word) => w.value !== undefined && (NOT_FILES.has(w.value) || /^\/dev\/fd\/\d+$/.test(w.value));

/** The reads and writes of `analysis`. */
export function fileUse(analysis: BashAnalysis): FileUse {
  const use: FileUse = { reads: [], writes: [] };
  for (const r of analysis.redirects) {
    // `2>&1`, `>&2`, `<&0`, `>&-`: a descriptor, not a file.
    if ((r.op === ">&" || r.op === "<&") && (r.target.value === undefined ? /^\d+-?$|^-$/.test(r.target.raw) : /^\d+-?$|^-$/.test(r.target.value))) continue;
    if (isDevice(r.target)) continue;
    if (WRITE_OPS.has(r.op)) use.writes.push(r.target);
    else if (READ_OPS.has(r.op)) use.reads.push(r.target);
  }
  for (const part of analysis.parts) commandFiles(part, use);
  return use;
}

/** Operands: the words after the program that are not options (`--` ends options). */
function operands(words: Word[], valueOpts: Set<string> = new Set()): { operands: Word[]; optionValues: Map<string, Word[]> } {
  const out: Word[] = [];
  const optionValues = new Map<string, Word[]>();
  let options = true;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value ?? w.raw;
    if (options && v === "--") {
      options = false;
      continue;
    }
    if (options && v.startsWith("-") && v !== "-") {
      const [name] = v.split("=", 1) as [string];
      if (valueOpts.has(name) && !v.includes("=") && i + 1 < words.length) {
        optionValues.set(name, [...(optionValues.get(name) ?? []), words[++i]!]);
      }
      continue;
    }
    out.push(w);
  }
  return { operands: out, optionValues };
}

function commandFiles(part: ShellCommand, use: FileUse): void {
  const program = part.words[0]?.value?.split("/").at(-1);
  if (program === "time") use.writes.push(...timeOutputs(part.words));
  if (program === undefined || part.transparent) return;
  const files = (ws: Word[]) => ws.filter((w) => !isDevice(w));
  if (READERS.has(program)) {
    // Every operand counts, option values included (`head -n 5 f` reads 5 and f): taking too many only over-matches.
    use.reads.push(...files(operands(part.words).operands));
  } else if (program === "tee") {
    use.writes.push(...files(operands(part.words).operands));
  } else if (program === "cp" || program === "mv") {
    const { operands: ops, optionValues } = operands(part.words, new Set(["-t", "--target-directory", "-S", "--suffix"]));
    const target = optionValues.get("-t") ?? optionValues.get("--target-directory");
    const inline = part.words.find((w) => (w.value ?? "").startsWith("--target-directory="));
    const dest = target ?? (inline ? [{ raw: inline.raw, value: inline.value!.slice("--target-directory=".length) }] : ops.slice(-1));
    const sources = target || inline ? ops : ops.slice(0, -1);
    use.writes.push(...dest);
    // What mv moves away is changed too; what cp copies is read.
    (program === "mv" ? use.writes : use.reads).push(...sources);
  } else if (program === "dd") {
    for (const w of part.words.slice(1)) {
      const v = w.value ?? w.raw;
      if (v.startsWith("of=")) use.writes.push({ raw: w.raw, value: w.value?.slice(3) });
      if (v.startsWith("if=")) use.reads.push({ raw: w.raw, value: w.value?.slice(3) });
    }
  } else if (SEARCHERS.has(program)) {
    const { operands: ops, optionValues } = operands(part.words, VALUE_OPTS);
    const patternGiven =
      ["-e", "-f", "--regexp", "--file"].some((o) => optionValues.has(o)) || part.words.some((w) => /^--(regexp|file|expression)=/.test(w.value ?? ""));
    const paths = files(patternGiven ? ops : ops.slice(1));
    const inPlace = program === "sed" && part.words.some((w) => /^(-i|--in-place)/.test(w.value ?? w.raw) || /^-[a-zA-Z]*i/.test(w.value ?? ""));
    (inPlace ? use.writes : use.reads).push(...paths);
    use.reads.push(...(optionValues.get("-f") ?? []), ...(optionValues.get("--file") ?? []));
  }
}

/** At most this many names from one glob; past it the word counts as unknown. */
const GLOB_LIMIT = 2000;

/**
 * The paths a path word stands for, relative to `cwd`: its value, or for a word whose only
 * expansions are globs and braces (`*.txt`, `src/{a,b}.ts`) the names it matches now; undefined
 * when it holds a variable or substitution, or matches too many names to check.
 */
export function pathsOf(word: Word, cwd: string): string[] | undefined {
  if (word.value !== undefined) return [word.value];
  if (/[$`'"\\]/.test(word.raw)) return undefined;
  try {
    const names: string[] = [];
    for (const name of new Bun.Glob(word.raw).scanSync({ cwd, onlyFiles: false, absolute: true, followSymlinks: false })) {
      names.push(name);
      if (names.length > GLOB_LIMIT) return undefined;
    }
    // No match: bash passes the word as written.
    return names.length ? names : [word.raw];
  } catch {
    return undefined;
  }
}

/** Programs that change the shell's directory for what follows them. */
const CD = new Set(["cd", "pushd", "popd"]);

/**
 * The directories the command's relative paths may be relative to: `start`, and every literal
 * `cd` target in it; undefined when a `cd` goes somewhere its words do not say (`cd $X`, `cd -`, `popd`).
 */
export function directories(analysis: BashAnalysis, start: string, home: string): string[] | undefined {
  const dirs = [start];
  for (const part of analysis.parts) {
    const program = part.words[0]?.value;
    if (program === undefined || !CD.has(program)) continue;
    const target = part.words.slice(1).find((w) => !(w.value ?? "").startsWith("-") || w.value === "-");
    if (program === "popd" || target?.value === undefined || target.value === "-") {
      if (program === "cd" && !target) dirs.push(home);
      else return undefined;
      continue;
    }
    const value = target.value.startsWith("~/") ? `${home}/${target.value.slice(2)}` : target.value === "~" ? home : target.value;
    for (const d of [...dirs]) dirs.push(value.startsWith("/") ? value : `${d}/${value}`);
  }
  return dirs;
}

/**
 * `time`'s own output files: after another wrapper (`nice time -o f cmd`) it is /usr/bin/time,
 * which writes its `-o`/`--output` file itself. Read up to the command it runs.
 */
export function timeOutputs(words: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const v = w.value;
    // A word that is not a plain literal may be an option: its file is unknown (the caller fails closed).
    if (v === undefined) return [...out, w];
    if (v === "--" || !v.startsWith("-") || v === "-") break;
    if (v.startsWith("--")) {
      const [name, value] = v.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const takes = name === "output" || name === "format";
      if (takes && value === undefined) i++;
      if (name === "output") out.push(value === undefined ? (words[i] ?? w) : { raw: value, value });
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const letter = v[k]!;
      if (letter !== "o" && letter !== "f") continue;
      const rest = v.slice(k + 1);
      const value: Word | undefined = rest ? { raw: rest, value: rest } : words[++i];
      if (letter === "o") out.push(value ?? w);
      break;
    }
  }
  return out;
}
