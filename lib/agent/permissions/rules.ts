/**
 * Permission rules in Claude Code's syntax (permissions.md, "Permission rule syntax"): `Tool` or
 * `Tool(specifier)`, evaluated deny, then ask, then allow over the rules of every file; the first
 * list that matches decides, whatever its file. `Bash(…)` specifiers match commands part by part
 * (bash-rules.ts); `Read(…)` covers Read, Grep, Glob and `@file` mentions, `Edit(…)` covers Edit
 * and Write (path-rules.ts); MCP rules name `mcp__server`, `mcp__server__*` or `mcp__server__tool`
 * with the names as the config and the server wrote them; `Skill(name)` covers the Skill tool's call
 * for that skill (skills.md). A rule for a tool we do not have is kept.
 */
import { ruleNamesTool } from "../mcp/names.ts";
import { parseBash } from "./bash-parse.ts";
import { bashPartMatches, bashWholeMatches } from "./bash-rules.ts";
import { analyzeBash } from "./bash/tree.ts";
import { allowMatches, denyMatches } from "./bash/match.ts";
import { directories, fileUse, pathsOf } from "./bash/files.ts";
import type { Word } from "./bash/tree.ts";
import type { Behavior, RuleText } from "../settings/merge.ts";
import { candidatePaths, compilePathPattern, type PathPattern } from "./path-rules.ts";
import { domainSpecCovers, hostOfInput } from "../../tools/web/domain-rule.ts";

/** A rule that parsed: its tool name (may hold `*` for deny/ask), its specifier, where it came from. */
export interface Rule {
  source: RuleText;
  tool: string;
  spec?: string;
  path?: PathPattern;
  /** The tool name as a pattern, when it holds `*` (`mcp__*`, `mcp__srv__*`). */
  toolGlob?: RegExp;
  /** A deny or ask rule whose specifier did not parse (`Bash(rm:*`): it covers every call of its tool. */
  malformed?: true;
}

/** Where an MCP tool's API name leads (the names as config and server wrote them). */
export interface ToolRoute {
  server: string;
  tool: string;
}

export interface RuleContext {
  cwd: string;
  home: string;
  /** One line per invalid rule. */
  warn(line: string): void;
}

/** A decision and the rule that made it. */
export interface RuleMatch {
  behavior: Behavior;
  rule: Rule;
}

const READERS = new Set(["Read", "Grep", "Glob"]);
const EDITORS = new Set(["Edit", "Write", "NotebookEdit"]);
/** The input field that holds each file tool's path. */
const PATH_FIELD: Record<string, string> = {
  Read: "file_path",
  Edit: "file_path",
  Write: "file_path",
  NotebookEdit: "notebook_path",
  Grep: "path",
  Glob: "path",
};

/**
 * Claude Code's older tool names, read in a rule as the tool they became (Claude Code's rule parser
 * does the same), so a deny rule written for an older release (`Task`) still denies the Agent tool.
 */
const LEGACY_TOOL_NAMES: Record<string, string> = { Task: "Agent", KillShell: "TaskStop", KillBash: "TaskStop" };

/** `Tool` or `Tool(spec)`, with the specifier's parentheses balanced at the end; undefined when malformed. */
export function parseRuleText(text: string): { tool: string; spec?: string } | undefined {
  const m = /^([^()]+?)(?:\((.*)\))?$/s.exec(text.trim());
  // MCP names are as the config and server wrote them (spaces, dots); other tool names are plain words.
  if (!m || (!m[1]!.startsWith("mcp__") && !/^[A-Za-z0-9_*.-]+$/.test(m[1]!))) return undefined;
  const tool = Object.hasOwn(LEGACY_TOOL_NAMES, m[1]!) ? LEGACY_TOOL_NAMES[m[1]!]! : m[1]!;
  // A Bash specifier's stray spaces (`Bash( rm :*)`) must not turn a deny rule into one that matches nothing.
  const spec = tool === "Bash" && m[2] !== undefined ? m[2].trim().replace(/\s+/g, " ").replace(/ :\*$/, ":*") : m[2];
  if (spec === undefined || spec === "" || spec === "*") return { tool };
  return { tool, spec };
}

/** The rules of `texts` that parse, in order; each malformed one is one `warn` line naming it and its file. */
export function compileRules(texts: RuleText[], ctx: RuleContext): Rule[] {
  const rules: Rule[] = [];
  for (const source of texts) {
    const parsed = parseRuleText(source.text);
    const globbedAllow = parsed && source.behavior === "allow" && parsed.tool.includes("*") && !/^mcp__[^*]+__/.test(parsed.tool);
    // Fail closed: a deny or ask rule that names its tool but not a specifier we can read covers every call of that tool.
    const head = parsed ? undefined : source.behavior !== "allow" ? parseRuleText(source.text.trim().replace(/\(.*$/s, "")) : undefined;
    if (head && head.spec === undefined && !head.tool.includes("*")) {
      ctx.warn(
        `${whereOf(source)}: malformed permission rule "${source.text}" ${source.behavior === "deny" ? "denies" : "asks about"} every ${head.tool} call`,
      );
      rules.push({ source, tool: head.tool, spec: source.text, malformed: true });
      continue;
    }
    if (!parsed || globbedAllow) {
      const why = parsed ? "an allow rule may use * in the tool name only after mcp__<server>__" : "expected Tool or Tool(specifier)";
      ctx.warn(`${whereOf(source)}: invalid permission rule "${source.text}" was skipped (${why})`);
      continue;
    }
    const rule: Rule = { source, ...parsed };
    if (parsed.tool.includes("*")) rule.toolGlob = new RegExp(`^${parsed.tool.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    if (parsed.spec !== undefined && (parsed.tool === "Read" || parsed.tool === "Edit")) {
      rule.path = compilePathPattern(parsed.spec, { cwd: ctx.cwd, home: ctx.home, root: source.file.root });
    }
    rules.push(rule);
  }
  return rules;
}

/** Where a rule came from, for its warning line: the flag, or the file and its list. */
function whereOf(source: RuleText): string {
  return source.file.path.startsWith("--") ? source.file.path : `${source.file.path}: permissions.${source.behavior}`;
}

/** Whether `rule`'s tool name covers `name` (and its route): exact names, Read/Edit families, MCP forms, `*` globs. */
function namesTool(rule: Rule, name: string, route: ToolRoute | undefined): boolean {
  if (rule.tool === "Read" && READERS.has(name)) return true;
  if (rule.tool === "Edit" && EDITORS.has(name)) return true;
  if (ruleNamesTool(rule.tool, name, route)) return true;
  const re = rule.toolGlob;
  if (!re) return false;
  return re.test(name) || (route !== undefined && re.test(`mcp__${route.server}__${route.tool}`));
}

/** Whether `rule` covers a call of `name`; `paths()` is the call's path argument resolved, computed once per call. */
function covers(rule: Rule, name: string, paths: () => string[], route: ToolRoute | undefined, input: Record<string, unknown> = {}): boolean {
  if (!namesTool(rule, name, route)) return false;
  if (rule.spec === undefined || rule.malformed) return true;
  if (rule.path) return paths().some((p) => rule.path!.matches(p));
  if (rule.tool === "Skill") return typeof input.skill === "string" && input.skill.trim().replace(/^\//, "") === rule.spec;
  // WebFetch(domain:host): the host of the call's url (a url that does not parse matches no domain).
  if (rule.tool === "WebFetch") {
    const host = hostOfInput(input);
    return host !== undefined && domainSpecCovers(rule.spec, host);
  }
  // Write(path) and specifiers of other tools are never consulted (Claude Code: Edit(…) covers writes).
  return false;
}

/**
 * The rules of one run, compiled once. `decide` answers deny, ask or allow for one call (undefined:
 * no rule speaks, and the mode decides); `removes` says whether a bare deny takes a tool off the request.
 */
export class PermissionRules {
  private readonly deny: Rule[];
  private readonly ask: Rule[];
  private readonly allow: Rule[];

  constructor(
    readonly rules: Rule[],
    private readonly ctx: RuleContext,
  ) {
    this.deny = rules.filter((r) => r.source.behavior === "deny");
    this.ask = rules.filter((r) => r.source.behavior === "ask");
    this.allow = rules.filter((r) => r.source.behavior === "allow");
  }

  get size(): number {
    return this.rules.length;
  }

  /** A tool named bare in a deny list is not offered to the model at all (permissions.md, "deny"). */
  removes(name: string, route?: ToolRoute): boolean {
    return this.deny.some((r) => r.spec === undefined && namesTool(r, name, route));
  }

  /** Deny, then ask, then allow: the first list with a rule covering the call decides. */
  decide(name: string, input: Record<string, unknown>, route?: ToolRoute, shellCwd?: string): RuleMatch | undefined {
    if (name === "Bash") return this.decideBash(typeof input.command === "string" ? input.command : "", shellCwd ?? this.ctx.cwd);
    let resolved: string[] | undefined;
    const paths = () => {
      const value = PATH_FIELD[name] ? input[PATH_FIELD[name]] : undefined;
      resolved ??= candidatePaths(typeof value === "string" && value ? value : ".", this.ctx.cwd, this.ctx.home);
      return resolved;
    };
    for (const [behavior, list] of [
      ["deny", this.deny],
      ["ask", this.ask],
      ["allow", this.allow],
    ] as const) {
      const rule = list.find((r) => covers(r, name, paths, route, input));
      if (rule) return { behavior, rule };
    }
    return undefined;
  }

  /** The absolute globs of the Read deny rules (what Grep and Glob leave out of a search). */
  readDenyGlobs(): string[] {
    return this.deny.filter((r) => r.tool === "Read" && r.path).map((r) => r.path!.glob);
  }

  /** The absolute globs of the Edit rules with `behavior` (the OS sandbox's extra read-only or writable paths). */
  editGlobs(behavior: "allow" | "deny"): string[] {
    return (behavior === "allow" ? this.allow : this.deny).filter((r) => r.tool === "Edit" && r.path).map((r) => r.path!.glob);
  }

  /** The deny rule covering a read of `path` (an `@file` mention), if any. */
  readDenied(path: string): Rule | undefined {
    const paths = candidatePaths(path, this.ctx.cwd, this.ctx.home);
    return this.deny.find((r) => covers(r, "Read", () => paths, undefined));
  }

  /** True when a Bash call's decision needs the shell grammar (permissions/bash/grammar.ts): a scoped Bash rule or a path rule. */
  get parsesBash(): boolean {
    return this.rules.some((r) => (r.tool === "Bash" && r.spec !== undefined && !r.malformed) || r.path !== undefined);
  }

  /**
   * Bash, on the shell grammar's tree (permissions/bash/tree.ts): deny and ask match if any simple
   * command matches (nested ones included), if the whole command does, or if some command could not
   * be resolved; allow only when the command has nothing unsafe and every simple command is allowed.
   * Before the grammar is loaded, the tokenizer finds deny and ask rules and no allow rule matches.
   */
  private decideBash(command: string, shellCwd: string): RuleMatch | undefined {
    const tree = analyzeBash(command);
    const parsed = tree ? undefined : parseBash(command);
    const partMatches = (spec: string) =>
      tree ? tree.opaque !== undefined || tree.parts.some((p) => denyMatches(spec, p)) : parsed!.parts.some((p) => bashPartMatches(spec, p, "loose"));
    const any = (list: Rule[]) =>
      list.find((r) => r.tool === "Bash" && (r.spec === undefined || r.malformed || bashWholeMatches(r.spec, command) || partMatches(r.spec)));
    // Read and Edit rules reach the files the command reads and writes (permissions/bash/files.ts); an unknown path may be any.
    const use = tree && fileUse(tree);
    // Relative paths are the shell's: its directory now (a cd in an earlier call stays), and any cd in this command.
    const dirs = tree && directories(tree, shellCwd, this.ctx.home);
    const paths = (w: Word) => {
      if (!dirs) return w.value?.startsWith("/") ? [candidatePaths(w.value, "/", this.ctx.home)] : undefined;
      const each = dirs.map((d) => pathsOf(w, d)?.map((p) => candidatePaths(p, d, this.ctx.home)));
      return each.some((e) => e === undefined) ? undefined : each.flatMap((e) => e!);
    };
    const touches = (r: Rule, tool: "Read" | "Edit", words: Word[]) =>
      r.tool === tool && r.path !== undefined && words.some((w) => paths(w)?.some((c) => c.some((p) => r.path!.matches(p))) ?? true);
    const fileRule = (list: Rule[]) => use && list.find((r) => touches(r, "Read", use.reads) || touches(r, "Edit", use.writes));
    for (const [behavior, list] of [
      ["deny", this.deny],
      ["ask", this.ask],
    ] as const) {
      const glob = list.find((r) => r.tool !== "Bash" && r.spec === undefined && namesTool(r, "Bash", undefined));
      const rule = glob ?? any(list) ?? fileRule(list);
      if (rule) return { behavior, rule };
    }
    const bare = this.allow.find((r) => r.tool === "Bash" && r.spec === undefined);
    if (bare) return { behavior: "allow", rule: bare };
    if (!tree || tree.unsafe || !tree.parts.length) return undefined;
    // A write is an Edit: an allow rule for the program does not cover one outside the working directory, unless an Edit rule allows it.
    if (use?.writes.some((w) => !this.writeAllowed(paths(w)))) return undefined;
    let last: Rule | undefined;
    for (const part of tree.parts) {
      if (part.transparent) continue;
      last = this.allow.find((r) => r.tool === "Bash" && r.spec !== undefined && allowMatches(r.spec, part));
      if (!last) return undefined;
    }
    return last && { behavior: "allow", rule: last };
  }

  /** A write a Bash allow rule may carry: every path it may be is inside the working directory or allowed by an Edit rule. */
  private writeAllowed(candidates: string[][] | undefined): boolean {
    if (!candidates) return false;
    const inside = (p: string) => p === this.ctx.cwd || p.startsWith(`${this.ctx.cwd}/`) || p.startsWith(`${this.realCwd}/`);
    return candidates.every((c) => c.every(inside) || this.allow.some((r) => r.tool === "Edit" && r.path !== undefined && c.every((p) => r.path!.matches(p))));
  }

  private get realCwd(): string {
    this.cwdReal ??= candidatePaths(".", this.ctx.cwd, this.ctx.home).at(-1)!;
    return this.cwdReal;
  }

  private cwdReal: string | undefined;
}
