/**
 * Bash rules on the shell grammar, table-driven from the classes of rewrites that got past a
 * tokenizer: a redirection before the program, wrappers' long options with values, `env -S`, a
 * program in a variable, quoting, braces, globs and `$IFS` in the program name, a substitution as
 * the program, `trap`, `coproc`, `eval`, `bash -c`. A deny rule must deny every one of them; an
 * allow rule must allow none of their allow-side twins; commands that parse and do not name the
 * denied program run as before.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import type { SettingsFile } from "../../../../lib/agent/settings/files.ts";
import type { Behavior } from "../../../../lib/agent/settings/merge.ts";
import { compileRules, PermissionRules } from "../../../../lib/agent/permissions/rules.ts";

beforeAll(() => loadBashGrammar());

const file: SettingsFile = { scope: "project", path: "/p/.claude/settings.json", root: "/p", doc: {} };
const ctx = { cwd: "/p", home: "/home/u", warn: () => {} };
function rules(spec: Partial<Record<Behavior, string[]>>): PermissionRules {
  const texts = (["deny", "ask", "allow"] as const).flatMap((behavior) => (spec[behavior] ?? []).map((text) => ({ text, behavior, file })));
  return new PermissionRules(compileRules(texts, ctx), ctx);
}
const bash = (r: PermissionRules, command: string) => r.decide("Bash", { command })?.behavior;

/** Each must be denied by `Bash(rm:*)`. */
const DENIED: [string, string][] = [
  ["redirection before the program", "> /tmp/out rm -rf victim"],
  ["redirection before the program (fd)", "2>/dev/null rm victim"],
  ["sudo long option with a value", "sudo --user root rm victim"],
  ["sudo long option =value", "sudo --user=root rm victim"],
  ["sudo clustered short options", "sudo -nu root rm victim"],
  ["timeout long options", "timeout --signal KILL --kill-after 1 5 rm victim"],
  ["nice --adjustment", "nice --adjustment 5 rm victim"],
  ["stdbuf --output", "stdbuf --output L rm victim"],
  ["ionice --class", "ionice --class 3 rm victim"],
  ["env --chdir", "env --chdir /tmp rm victim"],
  ["env -u", "env -u HOME FOO=1 rm victim"],
  ["xargs --max-args", "echo victim | xargs --max-args 1 rm"],
  ["xargs -I{}", "echo victim | xargs -I{} rm {}"],
  ["env -S", "env -S 'rm victim'"],
  ["env -S attached", 'env -S"rm victim"'],
  ["env --split-string=", "env --split-string='rm -f victim'"],
  ["env -iS cluster", "env -iS 'rm victim'"],
  ["program in a variable", "X=rm; $X victim"],
  ["program in a quoted variable", 'X=rm; "$X" victim'],
  ["program in ${X}", "${X} victim"],
  ["program in ${X:-rm}", "${X:-rm} victim"],
  ["empty quotes inside the name", 'r""m victim'],
  ["single-quoted part of the name", "'r'm victim"],
  ["backslash in the name", "\\rm victim"],
  ["backslash mid-name", "r\\m victim"],
  ["quoted name", '"rm" victim'],
  ["braces in the name", "r{m,} victim"],
  ["braces as the whole command", "{rm,victim}"],
  ["glob ? in the name", "r?m victim"],
  ["glob [] in the name", "r[m] victim"],
  ["glob * in a path", "/bin/r* victim"],
  ["ANSI-C quoting", "$'rm' victim"],
  ["ANSI-C escape", "$'\\x72m' victim"],
  ["$IFS in the name", "rm$IFS-f victim"],
  ["${IFS} in the name", "rm${IFS}victim"],
  ["substitution as the program", "$(echo rm) victim"],
  ["backtick substitution as the program", "`echo rm` victim"],
  ["trap", "trap 'rm victim' EXIT"],
  ["trap with a variable", 'trap "$CMD" EXIT'],
  ["coproc", "coproc rm victim"],
  ["coproc with a body", "coproc { rm victim; }"],
  ["eval", "eval rm victim"],
  ["eval of a variable", 'eval "$CMD"'],
  ["bash -c", "bash -c 'rm victim'"],
  ["sh -ec", 'sh -ec "rm victim"'],
  ["bash -c of a variable", 'bash -c "$CMD"'],
  ["command", "command rm victim"],
  ["exec", "exec rm victim"],
  ["nohup", "nohup rm victim"],
  ["busybox applet", "busybox rm victim"],
  ["watch", "watch -n 1 rm victim"],
  ["unknown wrapper option", "sudo --frobnicate rm victim"],
  ["pipeline", "echo a | rm victim"],
  ["subshell", "(rm victim)"],
  ["group", "{ rm victim; }"],
  ["if", "if true; then rm victim; fi"],
  ["function", "f() { rm victim; }; f"],
  ["here-document substitution", "cat <<EOF\n$(rm victim)\nEOF"],
  ["arithmetic substitution", "echo $((1+$(rm victim)))"],
  ["process substitution", "diff <(rm victim) x"],
  ["substitution in an assignment", "export A=$(rm victim)"],
  ["default-value substitution", "echo ${X:-$(rm victim)}"],
  ["unclosed quote", 'rm "victim'],
  ["a command on the line after an input redirection", "cat < in\nrm victim"],
  ["a command on the line after an output redirection", "echo a >> log\n\\rm victim"],
  ["absolute path", "/bin/rm victim"],
  ["find -exec", "find . -name victim -exec rm {} \\;"],
  ["find -execdir with +", "find . -execdir rm {} +"],
  ["find -ok through a wrapper", "find . -ok sudo rm {} ';'"],
  ["find with a variable that could be -exec", "find . $X rm {} \\;"],
];

/** Each must run as today with `Bash(rm:*)` denied. */
const NOT_DENIED = [
  "npm test 2>&1 | tee log",
  "echo rm",
  "ls -la",
  "git status && echo done",
  "echo $HOME",
  "ls *.txt",
  "printf '%s' \"$(date)\"",
  "cat <<'EOF'\nrm victim\nEOF",
  "grep -r rm .",
  "FOO=1 npm run build > build.log",
  "xargs -n 1 echo < list.txt",
  "echo a > out.txt b c",
  "find . -name '*.rm' -print",
  "find $DIR -exec grep -l rm {} +",
];

describe("Bash(rm:*) denies every rewrite of rm", () => {
  const r = rules({ deny: ["Bash(rm:*)"] });
  test.each(DENIED)("%s: %p", (_, command) => expect(bash(r, command)).toBe("deny"));
  test.each(DENIED)("an ask rule asks too (%s)", (_, command) => expect(bash(rules({ ask: ["Bash(rm:*)"] }), command)).toBe("ask"));
  test.each(NOT_DENIED)("%p runs as today", (command) => expect(bash(r, command)).toBeUndefined());
});

describe("a deny rule's prefix words are compared literally", () => {
  const r = rules({ deny: ["Bash(git push:*)"] });
  test.each(["git push", "git push origin main", "git $SUB origin", "git {push,pull}", 'git "pu"sh', "git p?sh", "sudo -u me git push"])("%p is denied", (c) =>
    expect(bash(r, c)).toBe("deny"),
  );
  test.each(["git pull", "git status $X", "echo git push"])("%p is not", (c) => expect(bash(r, c)).toBeUndefined());
});

describe("allow rules never match what cannot be resolved", () => {
  const r = rules({ allow: ["Bash(echo:*)", "Bash(git status:*)"] });
  test.each(["echo hi", "echo hi | echo there", "timeout 5 echo hi", "LANG=C echo hi", "git status --short", "echo *.txt"])("%p is allowed", (c) =>
    expect(bash(r, c)).toBe("allow"),
  );
  test.each([
    "$X hi",
    'e"ch"o hi',
    "ec{h,}o hi",
    "$'echo' hi",
    "echo $(rm x)",
    "trap 'echo' EXIT",
    "coproc echo hi",
    "echo hi && rm x",
    "git $SUB",
    "git {status,push}",
    "FOO=1 echo hi",
    "env echo hi",
    "sudo echo hi",
    "bash -c 'echo hi'",
    "eval echo hi",
    "find . -exec rm {} ;",
    'echo "hi',
  ])("%p is not", (c) => expect(bash(r, c)).toBeUndefined());
});
