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
const EDITORS = new Set(["Edit", "Write"]);
/** The input field that holds each file tool's path. */
const PATH_FIELD: Record<string, string> = { Read: "file_path", Edit: "file_path", Write: "file_path", Grep: "path", Glob: "path" };

/** `Tool` or `Tool(spec)`, with the specifier's parentheses balanced at the end; undefined when malformed. */
export function parseRuleText(text: string): { tool: string; spec?: string } | undefined {
  const m = /^([^()]+?)(?:\((.*)\))?$/s.exec(text.trim());
  // MCP names are as the config and server wrote them (spaces, dots); other tool names are plain words.
  if (!m || (!m[1]!.startsWith("mcp__") && !/^[A-Za-z0-9_*.-]+$/.test(m[1]!))) return undefined;
  const spec = m[2];
  if (spec === undefined || spec === "" || spec === "*") return { tool: m[1]! };
  return { tool: m[1]!, spec };
}

/** The rules of `texts` that parse, in order; each malformed one is one `warn` line naming it and its file. */
export function compileRules(texts: RuleText[], ctx: RuleContext): Rule[] {
  const rules: Rule[] = [];
  for (const source of texts) {
    const parsed = parseRuleText(source.text);
    const globbedAllow = parsed && source.behavior === "allow" && parsed.tool.includes("*") && !/^mcp__[^*]+__/.test(parsed.tool);
    if (!parsed || globbedAllow) {
      const why = parsed ? "an allow rule may use * in the tool name only after mcp__<server>__" : "expected Tool or Tool(specifier)";
      ctx.warn(`${source.file.path}: permissions.${source.behavior}: invalid permission rule "${source.text}" was skipped (${why})`);
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
  if (rule.spec === undefined) return true;
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
  decide(name: string, input: Record<string, unknown>, route?: ToolRoute): RuleMatch | undefined {
    if (name === "Bash") return this.decideBash(typeof input.command === "string" ? input.command : "");
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

  /** The deny rule covering a read of `path` (an `@file` mention), if any. */
  readDenied(path: string): Rule | undefined {
    const paths = candidatePaths(path, this.ctx.cwd, this.ctx.home);
    return this.deny.find((r) => covers(r, "Read", () => paths, undefined));
  }

  /**
   * Bash: deny and ask match if any part matches (nested ones included) or the whole command does;
   * allow only when the command has nothing unsafe and every part is allowed.
   */
  private decideBash(command: string): RuleMatch | undefined {
    const parsed = parseBash(command);
    const any = (list: Rule[]) =>
      list.find(
        (r) =>
          r.tool === "Bash" && (r.spec === undefined || bashWholeMatches(r.spec, command) || parsed.parts.some((p) => bashPartMatches(r.spec!, p, "loose"))),
      );
    for (const [behavior, list] of [
      ["deny", this.deny],
      ["ask", this.ask],
    ] as const) {
      const glob = list.find((r) => r.tool !== "Bash" && r.spec === undefined && namesTool(r, "Bash", undefined));
      const rule = glob ?? any(list);
      if (rule) return { behavior, rule };
    }
    const bare = this.allow.find((r) => r.tool === "Bash" && r.spec === undefined);
    if (bare) return { behavior: "allow", rule: bare };
    if (parsed.unsafe || !parsed.parts.length) return undefined;
    let last: Rule | undefined;
    for (const part of parsed.parts) {
      last = this.allow.find((r) => r.tool === "Bash" && bashPartMatches(r.spec!, part, "strict"));
      if (!last) return undefined;
    }
    return last && { behavior: "allow", rule: last };
  }
}
