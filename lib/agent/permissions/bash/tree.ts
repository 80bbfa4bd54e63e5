/**
 * A Bash command as permission rules see it, read from tree-sitter-bash's syntax tree: every simple
 * command anywhere in it (pipelines, lists, subshells, substitutions, functions, here-documents,
 * `eval`, `bash -c`, `trap`, the command a wrapper such as `sudo` or `env -S` runs), each word's
 * literal value when it has one, and every redirection. What cannot be resolved is said, never
 * guessed: a program word that is not a plain literal, an option a wrapper table does not know, a
 * parse error, `coproc`. Nothing is ever evaluated. A word's literal value is words.ts's.
 */
import type { Node, Parser } from "web-tree-sitter";
import { bashGrammar } from "./grammar.ts";
import { findCommands, SHELLS, shellCommandString, TRANSPARENT, unwrap, WRAPPERS } from "./wrappers.ts";
import { type Word, wordOf } from "./words.ts";

export type { Word } from "./words.ts";

/** One simple command. */
export interface ShellCommand {
  words: Word[];
  /** The words as written, joined by single spaces: what allow rules match. */
  text: string;
  /** The words' values (as written where there is none): deny and ask rules match this too. */
  plain: string;
  /** Names of the `NAME=value` assignments before it. */
  assigns: string[];
  /** Run from a substitution, `bash -c`, `eval`, `trap` or a wrapper, not written at the top level. */
  nested: boolean;
  /** Index of the first word that is not a plain literal; -1 when every word is one. */
  unknownAt: number;
  /** A wrapper an allow rule looks through (`timeout 5`): its command is the next part. */
  transparent?: boolean;
}

export interface Redirect {
  /** The operator: `>`, `>>`, `&>`, `&>>`, `>|`, `>&`, `<`, `<&`… */
  op: string;
  target: Word;
}

export interface BashAnalysis {
  parts: ShellCommand[];
  redirects: Redirect[];
  /** Why no allow rule may match (Claude Code's wording where it has one), if any reason. */
  unsafe?: string;
  /** Why some command could not be resolved at all: then every deny rule that could match denies. */
  opaque?: string;
}

export const NESTED = "A nested command in this command can't be checked before it runs";
export const VARIABLE = "A variable in this command can't be checked before it runs";
export const OPERATORS = "This command uses shell operators that require approval for safety";
export const WRAPPER = "This command runs another command through a wrapper that can't be checked before it runs";

const CONTROL = new Set([
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "compound_statement",
  "function_definition",
  "test_command",
  "subshell",
]);

interface Ctx {
  out: BashAnalysis;
  parser: Parser;
  nested: boolean;
  depth: number;
}

/** The analysis of `command`, or undefined while the grammar is not loaded (bash-grammar.ts). */
export function analyzeBash(command: string): BashAnalysis | undefined {
  const parser = bashGrammar();
  if (!parser) return undefined;
  const out: BashAnalysis = { parts: [], redirects: [] };
  parseInto(command, { out, parser, nested: false, depth: 0 });
  return out;
}

const opaque = (ctx: Ctx, why: string) => {
  ctx.out.opaque ??= why;
  ctx.out.unsafe ??= why;
};
const unsafe = (ctx: Ctx, why: string) => {
  ctx.out.unsafe ??= why;
};

function parseInto(text: string, ctx: Ctx): void {
  if (ctx.depth > 8) return opaque(ctx, "This command nests commands too deeply to be checked");
  const tree = ctx.parser.parse(text);
  if (!tree) return opaque(ctx, "This command could not be parsed");
  try {
    visit(tree.rootNode, ctx);
  } finally {
    tree.delete();
  }
}

function visit(node: Node, ctx: Ctx): void {
  if (node.isMissing || node.type === "ERROR") opaque(ctx, "This command could not be parsed");
  switch (node.type) {
    case "command":
      return command(node, ctx);
    case "declaration_command":
    case "unset_command":
      return declaration(node, ctx);
    case "command_substitution":
    case "process_substitution":
      unsafe(ctx, NESTED);
      return children(node, { ...ctx, nested: true });
    case "simple_expansion":
    case "expansion":
      unsafe(ctx, VARIABLE);
      break;
    case "file_redirect":
      redirect(node, ctx);
      break;
  }
  if (CONTROL.has(node.type)) unsafe(ctx, OPERATORS);
  children(node, ctx);
}

function children(node: Node, ctx: Ctx): void {
  for (const child of node.children) if (child) visit(child, ctx);
}

function redirect(node: Node, ctx: Ctx): void {
  const op = node.children.find((c) => c && !c.isNamed)?.type ?? "";
  const dest = node.childForFieldName("destination");
  if (dest) ctx.out.redirects.push({ op, target: wordOf(dest) });
  // The grammar takes the words after a redirection's target as more targets, even past a newline
  // (`a < in⏎rm x` comes out as one command): bash runs a second command there, so fail closed.
  if (destinations(node).length > 1 && node.text.includes("\n")) opaque(ctx, "This command could not be parsed");
}

/** A redirection's target and the words the grammar hung on it (bash's arguments of the command). */
function destinations(node: Node): Node[] {
  return node.childrenForFieldName("destination").filter((d): d is Node => d !== null);
}

/** The words after a redirection's target (`echo > f a b`: a and b), which bash passes to the command. */
function trailingWords(command: Node): Word[] {
  const parent = command.parent;
  const redirects = [
    ...command.namedChildren,
    ...(parent?.type === "redirected_statement" && parent.childForFieldName("body")?.id === command.id ? parent.namedChildren : []),
  ];
  return redirects.filter((r) => r?.type === "file_redirect").flatMap((r) => destinations(r!).slice(1).map(wordOf));
}

/** A simple command: its assignments, redirections, words; then what it runs. */
function command(node: Node, ctx: Ctx): void {
  const words: Word[] = [];
  const assigns: string[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "variable_assignment") assigns.push(child.childForFieldName("name")?.text ?? "");
    else if (child.type === "command_name") words.push(wordOf(child.namedChildren[0] ?? child));
    else if (!child.type.endsWith("redirect")) words.push(wordOf(child));
    visit(child, ctx);
  }
  words.push(...trailingWords(node));
  resolve(words, assigns, ctx);
}

/** `export A=1`, `local x`, `unset y`: a command named by its keyword. */
function declaration(node: Node, ctx: Ctx): void {
  const keyword = node.children[0]?.text ?? "";
  const words: Word[] = [{ raw: keyword, value: keyword }];
  for (const child of node.namedChildren) {
    if (!child) continue;
    words.push(wordOf(child));
    visit(child, ctx);
  }
  resolve(words, [], ctx);
}

function part(words: Word[], assigns: string[], ctx: Ctx, transparent = false): ShellCommand {
  const p: ShellCommand = {
    words,
    text: words.map((w) => w.raw).join(" "),
    plain: words.map((w) => w.value ?? w.raw).join(" "),
    assigns,
    nested: ctx.nested,
    unknownAt: words.findIndex((w) => w.value === undefined),
  };
  if (transparent) p.transparent = true;
  ctx.out.parts.push(p);
  return p;
}

/** Records `words` and follows what they run: wrappers, shells' `-c`, `eval`, `trap`. */
function resolve(input: Word[], assigns: string[], outer: Ctx): void {
  let words = input;
  let ctx = outer;
  for (;;) {
    if (!words.length) return;
    const first = words[0]!.value;
    if (first === undefined) {
      part(words, assigns, ctx);
      return opaque(ctx, "The program this command runs is not a plain word, so it can't be checked before it runs");
    }
    const name = first.split("/").at(-1)!;
    const values = words.map((w) => w.value);
    const inner = { ...ctx, nested: true, depth: ctx.depth + 1 };
    if (name === "eval") {
      part(words, assigns, ctx);
      unsafe(ctx, NESTED);
      if (values.slice(1).some((v) => v === undefined)) return opaque(ctx, NESTED);
      return parseInto(values.slice(1).join(" "), inner);
    }
    if (name === "trap") {
      part(words, assigns, ctx);
      unsafe(ctx, NESTED);
      const action = values[1];
      if (words.length > 1 && action === undefined) return opaque(ctx, NESTED);
      if (action && !action.startsWith("-")) parseInto(action, inner);
      return;
    }
    if (name === "coproc") {
      part(words, assigns, ctx);
      return opaque(ctx, "A command run by coproc can't be checked before it runs");
    }
    if (SHELLS.has(name)) {
      part(words, assigns, ctx);
      const script = shellCommandString(values);
      if (script === null) return;
      unsafe(ctx, NESTED);
      if (script === undefined) return opaque(ctx, NESTED);
      return parseInto(script, inner);
    }
    if (name === "find") {
      // `-exec rm {} ;` runs rm on each file: checked as a wrapper's command is.
      part(words, assigns, ctx);
      const runs = findCommands(values);
      if (runs === "unknown") return opaque(ctx, WRAPPER);
      if (runs.length) unsafe(ctx, WRAPPER);
      for (const [start, end] of runs) resolve(words.slice(start, end), [], inner);
      return;
    }
    if (!WRAPPERS[name]) {
      part(words, assigns, ctx);
      return;
    }
    const transparent = TRANSPARENT.has(name);
    part(words, assigns, ctx, transparent);
    if (!transparent) unsafe(ctx, WRAPPER);
    const r = unwrap(name, values);
    if ("unknown" in r) return opaque(ctx, `${WRAPPER} (${r.unknown})`);
    if ("shell" in r) {
      if (r.shell === undefined || values.slice(r.rest).some((v) => v === undefined)) return opaque(ctx, WRAPPER);
      return parseInto([r.shell, ...words.slice(r.rest).map((w) => w.raw)].join(" "), inner);
    }
    words = words.slice(r.at);
    assigns = transparent ? assigns : [];
    if (!transparent) ctx = inner;
  }
}
