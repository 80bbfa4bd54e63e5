/**
 * Programs that run another command (`sudo`, `env`, `timeout`, `xargs`, `nice`…): each one's
 * options, as its manual gives them, so that the command it runs is found however the options are
 * written (`--user root`, `-uroot`, `--user=root`, `-nu root`). An option a table does not know
 * means we cannot tell where the command starts: the caller then fails closed. Shells' `-c` and
 * `env -S` hand over a command string instead, which the caller parses as shell.
 */

/** One wrapper's options: short letters and long names, those taking a value listed apart. */
interface WrapperSpec {
  short: string;
  shortValue: string;
  long: string[];
  longValue: string[];
  /** Words after the options that are the wrapper's own (timeout's duration, chroot's root). */
  positional?: number;
  /** `NAME=value` words after the options are the wrapper's too (env). */
  assigns?: boolean;
  /** The option whose value is a shell command string (`env -S`, `flock -c`, `su -c`). */
  stringOption?: string;
  /** The words after the options are joined and run by a shell (`watch`). */
  joinsShell?: boolean;
  /** Numeric short options such as `nice -10`. */
  numeric?: boolean;
}

const spec = (short: string, shortValue: string, long: string[] = [], longValue: string[] = [], more: Partial<WrapperSpec> = {}): WrapperSpec => ({
  short,
  shortValue,
  long,
  longValue,
  ...more,
});

/** Wrappers an allow rule looks through (`timeout 5 npm test` is `npm test`), as Claude Code strips them. */
export const TRANSPARENT = new Set(["time", "timeout", "nice", "stdbuf", "command", "builtin", "noglob", "ionice"]);

export const WRAPPERS: Record<string, WrapperSpec> = {
  time: spec("pvqa", "fo", ["portability", "verbose", "quiet", "append"], ["format", "output"]),
  timeout: spec("v", "sk", ["preserve-status", "foreground", "verbose"], ["signal", "kill-after"], { positional: 1 }),
  nice: spec("", "n", [], ["adjustment"], { numeric: true }),
  stdbuf: spec("", "ioe", [], ["input", "output", "error"]),
  command: spec("pvV", ""),
  builtin: spec("", ""),
  noglob: spec("", ""),
  ionice: spec("t", "cnp", ["ignore"], ["class", "classdata", "pid"]),
  nohup: spec("", ""),
  exec: spec("cl", "a"),
  setsid: spec("cfw", "", ["ctty", "fork", "wait"]),
  env: spec(
    "i0v",
    "uCSP",
    ["ignore-environment", "null", "debug", "list-signal-handling"],
    ["unset", "chdir", "split-string", "block-signal", "default-signal", "ignore-signal"],
    {
      assigns: true,
      stringOption: "S",
    },
  ),
  sudo: spec(
    "AbEeHiKklnPSsVv",
    "CDghpRrTtUu",
    [
      "askpass",
      "background",
      "edit",
      "set-home",
      "login",
      "remove-timestamp",
      "reset-timestamp",
      "list",
      "non-interactive",
      "preserve-groups",
      "stdin",
      "shell",
      "version",
      "validate",
      "preserve-env",
    ],
    ["close-from", "chdir", "group", "host", "prompt", "chroot", "role", "command-timeout", "type", "other-user", "user"],
  ),
  doas: spec("ns", "uC"),
  xargs: spec(
    "0rtpxo",
    "adEILnPs",
    ["null", "no-run-if-empty", "verbose", "interactive", "exit", "open-tty", "show-limits"],
    ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var", "eof", "replace", "max-lines"],
  ),
  chroot: spec("", "", ["skip-chdir"], ["userspec", "groups"], { positional: 1 }),
  flock: spec("sxnuoF", "Ewc", ["shared", "exclusive", "nonblock", "unlock", "close", "no-fork", "verbose"], ["conflict-exit-code", "timeout", "command"], {
    positional: 1,
    stringOption: "c",
  }),
  watch: spec(
    "bcdeghtwxp",
    "nq",
    ["beep", "color", "no-color", "differences", "errexit", "chgexit", "no-title", "no-wrap", "exec", "precise"],
    ["interval", "equexit"],
    {
      joinsShell: true,
    },
  ),
  taskset: spec("ac", "", ["all-tasks", "cpu-list"], [], { positional: 1 }),
  su: spec("lmpfP", "cgGsw", ["login", "preserve-environment", "pty"], ["command", "group", "supp-group", "shell", "whitelist-environment"], {
    stringOption: "c",
  }),
  busybox: spec("", ""),
  unbuffer: spec("p", ""),
  caffeinate: spec("dimsu", "tw"),
};

/** Shells whose `-c` runs the next word as a command string. */
export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "rbash"]);

/** What follows a wrapper: the command's words (from `at`), a command string to parse, or nothing we can name. */
export type Unwrapped = { at: number; assigns: number } | { shell: string | undefined; rest: number } | { unknown: string };

/**
 * Where the command run by `name` starts in `values` (the wrapper's own word at 0; undefined for a
 * word that is not a plain literal). A string option (`env -S`, `su -c`) gives a command string.
 */
export function unwrap(name: string, values: (string | undefined)[]): Unwrapped {
  const s = WRAPPERS[name]!;
  let i = 1;
  let shell: string | undefined | null = null;
  const takeValue = (opt: string, attached: string): boolean => {
    if (attached === "" && i + 1 >= values.length) return false;
    const value = attached !== "" ? attached : values[++i];
    if (opt === s.stringOption) shell = value;
    return true;
  };
  for (; i < values.length; i++) {
    const w = values[i];
    if (w === undefined) return { unknown: `an option of ${name} is not a plain word` };
    if (w === "--") {
      i++;
      break;
    }
    if (!w.startsWith("-") || w === "-") break;
    if (w.startsWith("--")) {
      const [opt, value] = w.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (s.long.includes(opt) && value === undefined) continue;
      if (opt === "preserve-env" && name === "sudo") continue;
      if (!s.longValue.includes(opt)) return { unknown: `${name} has no option --${opt} we know` };
      if (value !== undefined) {
        if ((opt === "split-string" && name === "env") || (opt === "command" && s.stringOption)) shell = value;
        continue;
      }
      if (i + 1 >= values.length) return { unknown: `${name} --${opt} has no value` };
      i++;
      if ((opt === "split-string" && name === "env") || (opt === "command" && s.stringOption)) shell = values[i];
      continue;
    }
    if (s.numeric && /^-\d+$/.test(w)) continue;
    // A cluster of short options: letters until one that takes a value, which takes the rest or the next word.
    for (let j = 1; j < w.length; j++) {
      const c = w[j]!;
      if (s.short.includes(c)) continue;
      if (s.shortValue.includes(c)) {
        if (!takeValue(c, w.slice(j + 1))) return { unknown: `${name} -${c} has no value` };
        break;
      }
      return { unknown: `${name} has no option -${c} we know` };
    }
  }
  if (shell !== null) return { shell, rest: i };
  if (name === "env" && values[i - 1] === "-") return { at: i, assigns: 0 };
  i += s.positional ?? 0;
  if (s.joinsShell) return { shell: values.slice(i).some((v) => v === undefined) ? undefined : values.slice(i).join(" "), rest: values.length };
  let assigns = 0;
  while (s.assigns && i < values.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(values[i] ?? "")) {
    i++;
    assigns++;
  }
  return { at: i, assigns };
}

/** The command string a shell's `-c` runs (`bash -lc 'x'`), undefined when it is not a plain word; null when there is no `-c`. */
export function shellCommandString(values: (string | undefined)[]): string | undefined | null {
  for (let i = 1; i < values.length; i++) {
    const w = values[i];
    if (w === undefined) return undefined;
    if (w === "--" || !w.startsWith("-")) return null;
    if (w === "-o" || w === "+o" || w === "-O" || w === "+O") {
      i++;
      continue;
    }
    if (!w.startsWith("--") && w.slice(1).includes("c")) return i + 1 < values.length ? values[i + 1] : null;
  }
  return null;
}

/** find's actions that run a command for each file found, up to a `;` or `+` word. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/**
 * The commands `find … -exec CMD {} ;` runs, as [start, end) word ranges of `values` (find at 0).
 * A word that is not a plain literal and is followed by a `;` or `+` before any literal action
 * could itself be `-exec`: "unknown" then, so that the caller fails closed (`find . $X rm {} \;`).
 */
export function findCommands(values: (string | undefined)[]): [number, number][] | "unknown" {
  const ranges: [number, number][] = [];
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    if (v === undefined) {
      // It could be `-exec` when a `;` or `+` follows before find's next literal action.
      const next = values.findIndex((w, k) => k > i && (w === ";" || w === "+" || FIND_ACTIONS.has(w ?? "")));
      if (next > 0 && !FIND_ACTIONS.has(values[next]!)) return "unknown";
      continue;
    }
    if (!FIND_ACTIONS.has(v)) continue;
    let end = i + 1;
    while (end < values.length && values[end] !== ";" && values[end] !== "+") end++;
    ranges.push([i + 1, end]);
    i = end;
  }
  return ranges;
}
