/**
 * One run's skills: the local ones found at start-up (local.ts) and those connected MCP servers
 * serve (lib/agent/mcp/skills.ts), in Claude Code's listing order (user, project, then served).
 * It gives the listing message, the Skill tool, `/name` lookups, and the tools a loaded skill's
 * `allowed-tools` lets run without asking until the turn ends (Claude Code skills.md, "Restrict
 * tool access"): only a user skill's, or a project skill's in a trusted folder.
 */
import type { Tool, ToolContext } from "../../tools/tool.ts";
import type { SystemMessageParam } from "../messages.ts";
import { listingBudget, skillListing } from "./listing.ts";
import { skillTool } from "./skill-tool.ts";
import type { Skill } from "./skill.ts";
import { runSkillCommand } from "./prompt-skill.ts";
import type { SkillInput } from "../input/input-shapes.ts";
import { isScopedGrant, scopedGrantAllows } from "./grants.ts";
import { loadBashGrammar } from "../permissions/bash/grammar.ts";
import type { ToolRoute } from "../permissions/rules.ts";

export interface CatalogOptions {
  local: readonly Skill[];
  /** The served skills now (servers connect and change). */
  served(): readonly Skill[];
  /** A served skill's other file by `<skill name>/<path>`, as a Skill that loads it; undefined if no skill has that prefix. */
  servedFile?(name: string): Skill | undefined;
  log(line: string): void;
  /** True when the project folder's permissions count (workspace trust). */
  trusted(): boolean;
  /** The host's `skills` option: only these names are offered (undefined: all). */
  only?: readonly string[];
}

export class SkillCatalog {
  /** allowed-tools rules granted by skills loaded in this turn. */
  private readonly grants = new Set<string>();
  private warnedBudget = false;

  constructor(private readonly opts: CatalogOptions) {}

  /** Every skill, local first, then served; filtered by the host's `skills` option. */
  all(): Skill[] {
    const all = [...this.opts.local, ...this.opts.served()];
    const only = this.opts.only;
    return only ? all.filter((s) => only.includes(s.name)) : all;
  }

  find(name: string): Skill | undefined {
    return this.all().find((s) => s.name === name) ?? this.opts.servedFile?.(name);
  }

  /** The system-role listing message for a model with `windowTokens`, or undefined with nothing to list. */
  listing(windowTokens: number | undefined): SystemMessageParam | undefined {
    const budget = listingBudget(windowTokens);
    const text = skillListing(this.all(), budget, (line) => {
      if (!this.warnedBudget) this.opts.log(line);
      this.warnedBudget = true;
    });
    return text === undefined ? undefined : { role: "system", content: [{ type: "text", text }] };
  }

  /**
   * The Skill tool; `gate` decides whether a skill that grants tools may load (-p: a
   * `Skill(<name>)` allow rule). Undefined when there is no skill at all.
   */
  tool(gate?: (skill: Skill, ctx: ToolContext) => Promise<string | undefined> | string | undefined): Tool | undefined {
    if (!this.opts.local.length && !this.opts.served().length) return undefined;
    return skillTool({
      find: (name) => this.find(name),
      gate: gate && ((skill, ctx) => (skill.allowedTools.length ? gate(skill, ctx) : undefined)),
      onLoaded: (skill, loaded) => this.grant(skill, loaded.allowedTools),
    });
  }

  /** Records what a loaded skill lets run (a `/name` run counts too). */
  grant(skill: Skill, rules: readonly string[]): Promise<void> | undefined {
    if (!this.grantsTools(skill)) return;
    for (const r of rules) this.grants.add(r);
    // A scoped Bash grant matches only on the shell grammar: have it loaded before the skill's calls come.
    if (rules.some((r) => r.startsWith("Bash(") && isScopedGrant(r)))
      return loadBashGrammar().then(
        () => undefined,
        () => undefined,
      );
  }

  /**
   * The tools skills loaded in this turn let run: bare names (`Bash`, `Bash(*)`) of their
   * allowed-tools. Scoped rules (`Bash(git:*)`) are `grantsCall`'s: granting the whole tool would widen them.
   */
  grantedTools(): string[] {
    return [...this.grants].filter((r) => !isScopedGrant(r)).map((r) => r.replace("(*)", ""));
  }

  /** Every allowed-tools rule of this turn's skills, bare and scoped, as written. */
  grantRules(): string[] {
    return [...this.grants];
  }

  /** Whether a scoped allowed-tools rule of this turn's skills allows this call (grants.ts). */
  grantsCall(name: string, input: Record<string, unknown>, route: ToolRoute | undefined, cwd: string): boolean {
    return scopedGrantAllows([...this.grants], name, input, route, cwd);
  }

  /** The skills as the input layer sees them: `/name args` runs (their grants count too). */
  input(): SkillInput {
    return {
      run: (name, args) => {
        const skill = this.find(name);
        return skill && runSkillCommand(skill, args, (s, loaded) => this.grant(s, loaded.allowedTools));
      },
    };
  }

  /** A new user turn: earlier skills' grants end. */
  newTurn(): void {
    this.grants.clear();
  }

  private grantsTools(skill: Skill): boolean {
    return skill.origin.kind === "user" || (skill.origin.kind === "project" && this.opts.trusted());
  }
}
