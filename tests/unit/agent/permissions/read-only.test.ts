/**
 * Plan mode's read-only Bash classifier (permissions/bash/read-only.ts): read-only programs with
 * their read-only options run; an option that writes or runs code, an unknown option or program,
 * a redirection to a file, a substitution or a variable refuses.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import { readOnlyProblem } from "../../../../lib/agent/permissions/bash/read-only.ts";
import { sedScriptProblem } from "../../../../lib/agent/permissions/bash/read-only/sed-script.ts";

beforeAll(() => loadBashGrammar());

const ALLOWED = [
  "ls",
  "ls -la src",
  "ls --color=never -1",
  "cat README.md",
  "head -n 20 a.txt",
  "head -5 a.txt",
  "tail -n +3 a.txt",
  "wc -l a.txt b.txt",
  "grep -rn 'TODO' lib",
  "grep -e foo -e bar --include=*.ts .",
  "rg -n --hidden -g '*.ts' pattern",
  "find . -name '*.ts' -type f",
  "find src -maxdepth 2 \\( -name a -o -name b \\) -print",
  "sed -n '1,20p' a.txt",
  "sed -n -e '/start/,/end/p' a.txt",
  "sed 's/a/b/g' a.txt",
  "sort -n -k 2 a.txt",
  "sort a.txt | uniq -c | sort -rn | head",
  "git status --short",
  "git log --oneline -10",
  "git -C sub log -p --stat",
  "git diff HEAD~1 -- src",
  "git diff --cached --name-only",
  "git show HEAD:README.md",
  "git branch -a",
  "git branch --list 'feat*'",
  "git rev-parse --show-toplevel",
  "git blame -L 10,20 a.ts",
  "diff -u a.txt b.txt",
  "cut -d: -f1 /etc/passwd",
  "echo hello",
  "pwd",
  "cd src && ls",
  "ls ./*.ts",
  "ls src/*.ts",
  "ls 2>/dev/null",
  "ls 2>&1",
  "date +%Y",
  "file -b a.txt",
  "du -sh .",
  "timeout 5 ls",
  "LC_ALL=C sort a.txt",
  "tree -L 2",
  "printf '%s\\n' a b",
  "nice -n 5 time -p ls",
  "timeout -s KILL 5 ls",
];

const REFUSED: [string, RegExp][] = [
  ["find . -delete", /-delete/],
  ["find . -name x -exec rm {} ;", /./],
  ["find . -execdir cat {} +", /./],
  ["find . -fprint out.txt", /-fprint/],
  ["find . -ok rm {} ;", /./],
  ["sort -o out.txt a.txt", /-o/],
  ["sort --output=out.txt a.txt", /--output/],
  ["sort --compress-program=sh a.txt", /compress-program/],
  ["sort --out=x a.txt", /--out/],
  ["git diff --ext-diff", /ext-diff/],
  ["git diff --output=x", /--output/],
  ["git log --textconv", /textconv/],
  ["git log --show-signature", /show-signature/],
  ["git -c core.pager=sh log", /git/],
  ["git grep -O foo", /-O/],
  ["git commit -m x", /commit/],
  ["git push", /push/],
  ["git branch newbranch", /creates/],
  ["git checkout main", /checkout/],
  ["sed -n 'w out.txt' a.txt", /writes/],
  ["sed -n '1x;w /tmp/o' a.txt", /writes/],
  ["sed 's/a/b/w out' a.txt", /writes/],
  ["sed 's/a/b/e' a.txt", /runs/],
  ["sed -n 'e ls' a.txt", /runs/],
  ["sed -e p -e 'w out' a.txt", /writes/],
  ["sed -i 's/a/b/' a.txt", /-i/],
  ["sed -f script.sed a.txt", /-f/],
  ["sed s,a*,b, a.txt", /pattern the shell expands/],
  ["sed -e s,a?,b, a.txt", /pattern the shell expands/],
  ["rg --pre sh foo", /--pre/],
  ["rg -z foo", /-z/],
  ["tree -o out.txt", /-o/],
  ["uniq a.txt b.txt", /operand/],
  ["xxd a.bin out.bin", /operand/],
  ["date 010101012020", /clock/],
  ["ls > out.txt", /redirection/],
  ["cat a >> b", /redirection/],
  ["echo x >| f", /redirection/],
  ["ls &> f", /redirection/],
  ["cat <> f", /./],
  ["echo $(rm -rf x)", /./],
  ["echo `rm x`", /./],
  ["ls $HOME", /./],
  ["cat <(rm x)", /./],
  ["rm -rf x", /rm/],
  ["touch x", /touch/],
  ["awk 'BEGIN{system(\"rm x\")}'", /awk/],
  ["xargs rm < list", /./],
  ["env rm x", /./],
  ["sudo ls", /./],
  ["bash -c ls", /./],
  ["eval ls", /./],
  ["./ls", /path/],
  ["/tmp/evil/cat a", /path/],
  ["ls *.ts", /glob/],
  ["ls --output=*.ts", /--output/],
  ["ls -{o,x}", /./],
  ["grep -Q x a", /-Q/],
  ["ls --frobnicate", /frobnicate/],
  ["GIT_EXTERNAL_DIFF=x git diff", /assignment/],
  ["PAGER=sh git log", /assignment/],
  ["for f in a; do rm $f; done", /./],
  ["ls; rm x", /rm/],
  ["ls && touch y", /touch/],
  ["ls | tee out", /tee/],
  ["head -n", /value/],
  ["", /no command/],
  ["ls 'unterminated", /./],
  // printf -v sets a shell variable: PATH or HOME then makes the next program one of the repository's.
  ["printf -v PATH . ; ls", /printf -v/],
  ["printf -vHOME . && git diff", /printf -v/],
  ["builtin printf -v PATH %s .", /printf -v/],
  ["command printf -v PATH .", /printf -v/],
  // After a wrapper, time is /usr/bin/time, whose -o writes a file.
  ["nice time -o out.txt ls", /time: option -o/],
  ["timeout 5 time --output=out.txt ls", /time: option --output/],
  ["command time -ao out.txt ls", /time: option -a/],
  ["ionice -c 3 -p 1", /ionice: option -p/],
];

describe("read-only classifier", () => {
  for (const command of ALLOWED) test(`allows: ${command}`, () => expect(readOnlyProblem(command)).toBeUndefined());
  for (const [command, why] of REFUSED)
    test(`refuses: ${command || "(empty)"}`, () => {
      const problem = readOnlyProblem(command);
      expect(problem).toBeString();
      expect(problem!).toMatch(why);
    });
});

describe("sed scripts", () => {
  test("print-only scripts pass", () => {
    for (const script of ["p", "1,5p", "/a/,/b/{p;d}", "s|x|y|gp", "$!N;P;D", "y/abc/xyz/", "10q", "/re/I p", "\\%a%p"])
      expect(sedScriptProblem(script)).toBeUndefined();
  });
  test("write, read, run and unknown commands refuse", () => {
    for (const script of ["w f", "1W f", "r f", "e", "s/a/b/w f", "s/a/b/gpe", "s/a/b", "k", "a text"]) expect(sedScriptProblem(script)).toBeString();
  });
});
