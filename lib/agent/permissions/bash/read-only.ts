/**
 * The read-only classifier plan mode lets Bash through (policy/plan-mode.ts): a command runs only
 * when tree-sitter-bash's reading of it (tree.ts) finds nothing it cannot resolve, no substitution,
 * variable, control flow or wrapper, no redirection but to /dev/null or between descriptors, and
 * every simple command in it is a program of read-only/programs.ts given only options listed there.
 * No model is asked what is safe: what the tables do not know is refused.
 */
import { analyzeBash, type ShellCommand } from "./tree.ts";
import { parseOptions, type OptionSpec } from "./read-only/options.ts";
import { GIT_SUBCOMMANDS, READ_ONLY_PROGRAMS } from "./read-only/programs.ts";
import { sedScriptProblem } from "./read-only/sed-script.ts";
import { unwrap } from "./wrappers.ts";
import { gitConfigProblem } from "./read-only/git-config.ts";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Assignments before a program that change nothing it runs (GIT_PAGER and the like could). */
const HARMLESS_ASSIGNS = /^(LANG|LC_[A-Z]+|TZ|NO_COLOR|TERM|COLUMNS)$/;

/**
 * The options a wrapper the tree looks through (wrappers.ts's TRANSPARENT) may be given here: after
 * another wrapper `time` is /usr/bin/time, whose `-o`/`-a` write a file, and `ionice -p` changes
 * another process. What is not listed refuses.
 */
const WRAPPER_OPTIONS: Record<string, OptionSpec> = {
  time: { short: "pvq", shortValue: "f", long: ["portability", "verbose", "quiet", "format="] },
  timeout: { short: "v", shortValue: "sk", long: ["preserve-status", "foreground", "verbose", "signal=", "kill-after="] },
  nice: { shortValue: "n", long: ["adjustment="], numeric: true },
  stdbuf: { shortValue: "ioe", long: ["input=", "output=", "error="] },
  command: { short: "pvV" },
  builtin: {},
  noglob: {},
  ionice: { short: "t", shortValue: "cn", long: ["ignore", "class=", "classdata="] },
};

/** find's tests and actions that only read and print, with how many words each takes. */
const FIND_PRIMARIES: Record<string, number> = {
  ...Object.fromEntries(
    [
      "-print",
      "-print0",
      "-ls",
      "-prune",
      "-quit",
      "-true",
      "-false",
      "-empty",
      "-readable",
      "-writable",
      "-executable",
      "-nouser",
      "-nogroup",
      "-depth",
      "-xdev",
      "-mount",
      "-follow",
      "-daystart",
      "-noleaf",
      "-not",
      "-a",
      "-o",
      "-and",
      "-or",
      "!",
      "(",
      ")",
      ",",
    ].map((p) => [p, 0]),
  ),
  ...Object.fromEntries(
    [
      "-name",
      "-iname",
      "-path",
      "-ipath",
      "-wholename",
      "-iwholename",
      "-regex",
      "-iregex",
      "-type",
      "-xtype",
      "-maxdepth",
      "-mindepth",
      "-size",
      "-mtime",
      "-mmin",
      "-atime",
      "-amin",
      "-ctime",
      "-cmin",
      "-newer",
      "-anewer",
      "-cnewer",
      "-perm",
      "-user",
      "-group",
      "-uid",
      "-gid",
      "-links",
      "-inum",
      "-samefile",
      "-lname",
      "-ilname",
      "-regextype",
      "-printf",
      "-used",
      "-fstype",
    ].map((p) => [p, 1]),
  ),
};

/**
 * Undefined when plan mode may run `command` in `cwd` (the directory the shell is in); else why not,
 * in a few words. Fails closed without the grammar. Without `cwd` only the words are checked, not
 * the config of the repository a git command would read (read-only/git-config.ts).
 */
export function readOnlyProblem(command: string, cwd?: string): string | undefined {
  const analysis = analyzeBash(command);
  if (!analysis) return "the shell grammar is not loaded, so the command cannot be checked";
  if (analysis.opaque) return analysis.opaque;
  if (analysis.unsafe) return analysis.unsafe;
  for (const r of analysis.redirects) {
    const target = r.target.value;
    const dup = (r.op === ">&" || r.op === "<&") && target !== undefined && /^(\d+|-)$/.test(target);
    if (!dup && target !== "/dev/null") return `a redirection (${r.op} ${r.target.raw}) may write a file`;
  }
  if (!analysis.parts.length) return "there is no command";
  for (const part of analysis.parts) {
    const problem = part.transparent ? wrapperProblem(part) : partProblem(part);
    if (problem) return problem;
  }
  return cwd === undefined ? undefined : repositoryProblem(analysis.parts, cwd);
}

/** `to` from `from` as the shell reads it: `~` and `~/x` are the home; `~user` is not followed (undefined). */
function folder(from: string, to: string): string | undefined {
  if (to === "~" || to.startsWith("~/")) return join(homedir(), to.slice(1));
  if (to.startsWith("~")) return undefined;
  return resolve(from, to);
}

/**
 * Each git command's repository (after its `-C`s) must name no program in its config. Where a `cd`
 * in the same command leaves the shell is not followed through pipes and subshells, so git is
 * checked from every folder it may start in: the shell's, and each `cd`'s (a `cd` to somewhere not
 * plainly written refuses).
 */
function repositoryProblem(parts: ShellCommand[], cwd: string): string | undefined {
  const gits = parts.filter((p) => !p.transparent && p.words[0]?.value === "git");
  if (!gits.length) return undefined;
  const starts = [cwd];
  for (const p of parts) {
    if (p.transparent || p.words[0]?.value !== "cd") continue;
    const target = p.words.slice(1).find((w) => !(w.value ?? "").startsWith("-") || w.value === "-");
    if (!target) continue; // `cd` alone: the home, which is the user's own
    const to = target.value === undefined || target.value === "-" ? undefined : folder(starts.at(-1)!, target.value);
    if (to === undefined) return "git after a cd whose folder is not plainly written: run the cd on its own first";
    starts.push(to);
  }
  for (const part of gits) {
    const values = part.words.map((w) => w.value ?? "");
    for (const start of starts) {
      let dir: string | undefined = start;
      for (let i = 1; i < values.length - 1 && values[i]!.startsWith("-") && dir !== undefined; i++) if (values[i] === "-C") dir = folder(dir, values[++i]!);
      if (dir === undefined) return "git -C with a folder that is not plainly written";
      const problem = gitConfigProblem(dir);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** A wrapper's own options (the command it runs is a part of its own). */
function wrapperProblem(part: ShellCommand): string | undefined {
  const values = part.words.map((w) => w.value);
  const name = values[0]?.split("/").at(-1) ?? "";
  const spec = WRAPPER_OPTIONS[name];
  if (!spec) return `${name} is not a wrapper known to only read`;
  const r = unwrap(name, values);
  if (!("at" in r)) return `${name}: its options cannot be read`;
  const parsed = parseOptions(name, values.slice(1, r.at) as string[], spec);
  return "refused" in parsed ? parsed.refused : undefined;
}

function partProblem(part: ShellCommand): string | undefined {
  const bad = part.assigns.find((a) => !HARMLESS_ASSIGNS.test(a));
  if (bad) return `the assignment ${bad}= may change what the program does`;
  const program = part.words[0]?.value;
  if (program === undefined) return "the program is not a plain word";
  if (program.includes("/")) return `${program} is run by its path, not found by name`;
  const spec = READ_ONLY_PROGRAMS[program];
  if (!spec) return `${program} is not a program known to only read`;
  const args: string[] = [];
  /** Words that expand (globs, braces), as written: what they become is not what was checked. */
  const expands = new Set<string>();
  for (const word of part.words.slice(1)) {
    if (word.value !== undefined) args.push(word.value);
    // A glob or brace that cannot expand to an option (it starts with a path or a name) is an operand;
    // in `--name=*.ts` it can only expand to the same option, whose name is checked as written.
    else if (/^([\w./~]|--[\w-]+=)[^$`]*$/.test(word.raw)) {
      args.push(word.raw);
      expands.add(word.raw);
    } else return `${word.raw} may expand to an option; start a glob with ./`;
  }
  if (program === "find") return findProblem(args);
  if (program === "git") return gitProblem(args);
  return optionsProblem(program, args, spec, expands);
}

function optionsProblem(program: string, args: string[], spec: OptionSpec, expands: ReadonlySet<string>): string | undefined {
  const parsed = parseOptions(program, args, spec);
  if ("refused" in parsed) return parsed.refused;
  if (program === "sed") {
    const scripts = parsed.options.filter(([name]) => name === "-e" || name === "expression").map(([, v]) => String(v));
    if (!scripts.length && parsed.operands[0] !== undefined) scripts.push(parsed.operands[0]);
    for (const script of scripts) {
      // A glob in the script's place becomes whatever file names match it: a script we never read.
      if (expands.has(script)) return `sed: the script ${script} is a pattern the shell expands`;
      const problem = sedScriptProblem(script);
      if (problem) return problem;
    }
  }
  // printf -v sets a shell variable: PATH or HOME, and the next program is one the repository ships.
  if (program === "printf" && /^-[^-]*v/.test(args[0] ?? "")) return "printf -v sets a shell variable";
  if (program === "date" && parsed.operands.some((o) => !o.startsWith("+"))) return "date: an operand that is not a +format sets the clock";
  return undefined;
}

/** find: starting points, then only the primaries above (no -exec, -ok, -delete, -fprint…). */
function findProblem(args: string[]): string | undefined {
  let i = 0;
  while (i < args.length && ["-H", "-L", "-P"].includes(args[i]!)) i++;
  while (i < args.length && !args[i]!.startsWith("-") && args[i] !== "(" && args[i] !== "!") i++;
  for (; i < args.length; i++) {
    const arity = FIND_PRIMARIES[args[i]!];
    if (arity === undefined) return `find: ${args[i]} is not known to be read-only`;
    i += arity;
  }
  return undefined;
}

/** git: `-C dir`, `--no-pager` and `-P`, then a read-only subcommand and its own options. */
function gitProblem(args: string[]): string | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-C") i++;
    else if (a !== "--no-pager" && a !== "-P" && a !== "--no-optional-locks") break;
  }
  const sub = args[i];
  if (sub === undefined) return "git: no subcommand";
  const spec = GIT_SUBCOMMANDS[sub];
  if (!spec) return `git ${sub} is not known to only read`;
  const rest = args.slice(i + 1);
  const parsed = parseOptions(`git ${sub}`, rest, spec);
  if ("refused" in parsed) return parsed.refused;
  const listing = parsed.options.some(([name]) => name === "-l" || name === "list");
  if (sub === "branch" && parsed.operands.length && !listing) return "git branch with a name creates a branch";
  return undefined;
}
