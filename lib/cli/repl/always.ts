/**
 * The session's `[a]lways` answers, as Claude Code's "Yes, and don't ask again" keeps them
 * (lib/agent/permissions/always-rule.ts decides what): a Bash prefix rule or an MCP tool rule is saved to
 * `.claude/settings.local.json` and holds at once; Edit and Write become acceptEdits for the
 * session. The question names what will be kept and where before `a` is pressed.
 */
import { homeDir } from "../../shared/claude-home.ts";
import { type Always, alwaysFor, saveAllowRule } from "../../agent/permissions/always-rule.ts";
import { compileRules, PermissionRules, type ToolRoute } from "../../agent/permissions/rules.ts";
import type { Tool } from "../../tools/tool.ts";
import { pendingLoosening, recordApproval } from "../../agent/settings/consent.ts";

/** Where `[a]lways` saves, as consent.ts names a repository's settings files. */
const LOCAL_FILE = ".claude/settings.local.json";
import { loadBashGrammar } from "../../agent/permissions/bash/grammar.ts";

export class AlwaysStore {
  private saved: string[] = [];
  private rules: PermissionRules | undefined;

  constructor(
    private readonly cwd: string,
    private readonly route: (name: string) => ToolRoute | undefined,
    private readonly warn: (line: string) => void,
  ) {}

  /** What `a` would keep for this call; undefined: the question offers yes or no only. */
  offer(tool: Tool, input: Record<string, unknown>): Always {
    return alwaysFor(this.cwd, tool.name, input, this.route(tool.name));
  }

  /** The question's third choice, naming what is kept and where. */
  label(always: NonNullable<Always>): string {
    if ("acceptEdits" in always) return "[a]lways: accept edits for this session";
    return `[a]lways: save ${always.rule} to .claude/settings.local.json`;
  }

  /** Loads the shell grammar when a saved Bash rule is to match a call, or a Bash rule to be offered: both read the command through it. */
  async ready(tool: Tool, offering = false): Promise<void> {
    if (tool.name === "Bash" && (offering || this.rules?.parsesBash)) await loadBashGrammar().catch(() => undefined);
  }

  /** True when a rule saved this session covers the call. */
  allows(tool: Tool, input: Record<string, unknown>): boolean {
    return this.rules?.decide(tool.name, input, this.route(tool.name))?.behavior === "allow";
  }

  /** Keeps `always`: Edit and Write join `allowed` for the session; a rule is saved (a failed write is one line, and it still holds now). */
  keep(always: NonNullable<Always>, allowed: Set<string>): void {
    if ("acceptEdits" in always) {
      allowed.add("Edit");
      allowed.add("Write");
      allowed.add("NotebookEdit");
      return;
    }
    try {
      // The user's own rule must not bring the trust question back: a file approved (or loosening nothing) before the save stays approved after it.
      const wasApproved = !pendingLoosening(this.cwd).some((f) => f.file === LOCAL_FILE);
      saveAllowRule(always.file, always.rule);
      if (wasApproved)
        recordApproval(
          this.cwd,
          pendingLoosening(this.cwd).filter((f) => f.file === LOCAL_FILE),
        );
    } catch (err) {
      this.warn(`cannot save ${always.rule}: ${(err as Error).message}`);
    }
    this.saved.push(always.rule);
    const file = { scope: "local" as const, path: always.file, root: this.cwd, doc: {} };
    const ctx = { cwd: this.cwd, home: homeDir(), warn: this.warn };
    this.rules = new PermissionRules(
      compileRules(
        this.saved.map((text) => ({ text, behavior: "allow" as const, file })),
        ctx,
      ),
      ctx,
    );
  }
}
