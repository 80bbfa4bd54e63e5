/**
 * Differential fuzz of the Bash rule matcher: seeded command strings built from the pieces that
 * rewrites use (wrappers and their options, quotes, braces, globs, variables, substitutions,
 * redirections, operators, `trap`, `eval`, `bash -c`), decided on the shell grammar and by the
 * old tokenizer (bash-parse.ts). No deny rule the tokenizer matched may be missed on the grammar,
 * and nothing may be allowed on the grammar that the tokenizer would not allow either, except for
 * the cases where the grammar reads more precisely (listed). A failing seed reproduces exactly.
 */
import { beforeAll, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import { analyzeBash } from "../../../../lib/agent/permissions/bash/tree.ts";
import { parseBash } from "../../../../lib/agent/permissions/bash-parse.ts";
import { bashPartMatches, bashWholeMatches } from "../../../../lib/agent/permissions/bash-rules.ts";
import type { SettingsFile } from "../../../../lib/agent/settings/files.ts";
import { compileRules, PermissionRules } from "../../../../lib/agent/permissions/rules.ts";
import { prng } from "../../../support/prng.ts";

beforeAll(() => loadBashGrammar());

const file: SettingsFile = { scope: "project", path: "/p/.claude/settings.json", root: "/p", doc: {} };
const ctx = { cwd: "/p", home: "/home/u", warn: () => {} };
const DENY = ["rm:*", "git push:*", "curl *"];
const ALLOW = ["echo:*", "git status:*", "ls:*", "npm test:*"];
const rules = new PermissionRules(
  compileRules(
    [
      ...DENY.map((s) => ({ text: `Bash(${s})`, behavior: "deny" as const, file })),
      ...ALLOW.map((s) => ({ text: `Bash(${s})`, behavior: "allow" as const, file })),
    ],
    ctx,
  ),
  ctx,
);

/** The tokenizer's deny decision, as rules.ts made it before the grammar. */
const tokenizerDenies = (command: string) => {
  const parsed = parseBash(command);
  return DENY.some((spec) => bashWholeMatches(spec, command) || parsed.parts.some((p) => bashPartMatches(spec, p, "loose")));
};
const tokenizerAllows = (command: string) => {
  const parsed = parseBash(command);
  return !parsed.unsafe && parsed.parts.length > 0 && parsed.parts.every((p) => ALLOW.some((spec) => bashPartMatches(spec, p, "strict")));
};

const PROGRAMS = ["rm", "echo", "ls", "git push", "git status", "npm test", "curl x", "cat", "printf x", "true"];
const PREFIXES = [
  "",
  "",
  "",
  "timeout 5 ",
  "nice -n 1 ",
  "sudo -u root ",
  "env FOO=1 ",
  "env -S '",
  "xargs ",
  "command ",
  "nohup ",
  "LANG=C ",
  "FOO=1 ",
  "> out ",
  "2>/dev/null ",
];
const SPELLINGS = [
  (p: string) => p,
  (p: string) => `"${p}"`,
  (p: string) => `'${p[0]}'${p.slice(1)}`,
  (p: string) => `\\${p}`,
  (p: string) => `$X${p}`,
  (p: string) => `${p}$IFS`,
];
const ARGS = ["", " a", " -f b", " $HOME", " *.txt", " {a,b}", " $(date)", " `id`", " 'q u'", ' "d $v"', " > f", " 2>&1", " < in", " >> /tmp/x"];
const JOINERS = [" && ", " || ", "; ", " | ", "\n", " & "];
const WRAPS = [
  (c: string) => c,
  (c: string) => `(${c})`,
  (c: string) => `{ ${c}; }`,
  (c: string) => `$(${c})`,
  (c: string) => `bash -c '${c}'`,
  (c: string) => `eval ${c}`,
  (c: string) => `if true; then ${c}; fi`,
];

function simple(r: ReturnType<typeof prng>): string {
  const prefix = r.pick(PREFIXES);
  const program = r.pick(SPELLINGS)(r.pick(PROGRAMS));
  const cmd = `${prefix}${program}${r.pick(ARGS)}${r.pick(ARGS)}`;
  return prefix.endsWith("'") ? `${cmd.replace(/'/g, "")}'` : cmd;
}

function command(r: ReturnType<typeof prng>): string {
  let c = simple(r);
  for (let n = r.int(3); n > 0; n--) c += r.pick(JOINERS) + simple(r);
  return r.int(4) === 0 ? r.pick(WRAPS)(c) : c;
}

test("over 3000 seeded commands, the grammar never misses a deny the tokenizer found, nor allows what it refused", () => {
  const missed: string[] = [];
  const looser: string[] = [];
  for (let seed = 1; seed <= 3000; seed++) {
    const c = command(prng(seed));
    const decision = rules.decide("Bash", { command: c })?.behavior;
    if (tokenizerDenies(c) && decision !== "deny") missed.push(`${seed}: ${c}`);
    if (decision === "allow" && !tokenizerAllows(c) && !analyzeBash(c)!.redirects.length) looser.push(`${seed}: ${c}`);
  }
  expect(missed).toEqual([]);
  expect(looser).toEqual([]);
  // A busy machine may take its time; the test asserts decisions, never speed.
}, 120_000);

test("every simple command the tokenizer saw at the top level, the grammar sees too", () => {
  for (let seed = 1; seed <= 500; seed++) {
    const c = simple(prng(seed * 7919));
    const tree = analyzeBash(c)!;
    if (tree.opaque) continue;
    const programs = new Set(tree.parts.map((p) => p.plain.split(" ")[0]!.split("/").at(-1)));
    for (const part of parseBash(c).parts.filter((p) => !p.nested)) {
      // The tokenizer took a leading redirection for the program: nothing to compare.
      if (/^[\d<>&]/.test(part.plain)) continue;
      const program = part.plain.split(" ")[0]!.split("/").at(-1)!;
      if (!/^[a-z]+$/.test(program)) continue;
      expect({ seed, c, seen: programs.has(program) }).toEqual({ seed, c, seen: true });
    }
  }
});
