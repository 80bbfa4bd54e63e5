/**
 * The skills listing's limits (lib/agent/skills/listing.ts, Claude Code 2.1.328's): the per-skill
 * cap, the whole listing's budget and how entries shrink to their names over it; and the body
 * substitutions (render.ts).
 */
import { describe, expect, test } from "bun:test";
import { listingBudget, skillListing } from "../../../../lib/agent/skills/listing.ts";
import { renderBody } from "../../../../lib/agent/skills/render.ts";
import type { Skill } from "../../../../lib/agent/skills/skill.ts";

const skill = (name: string, description: string, extra: Partial<Skill> = {}): Skill => ({
  name,
  description,
  origin: { kind: "user", dir: `/h/${name}` },
  disableModelInvocation: false,
  userInvocable: true,
  allowedTools: [],
  load: async () => ({ text: "", allowedTools: [] }),
  ...extra,
});

describe("skillListing", () => {
  test("nothing to list is no listing; disable-model-invocation skills are left out", () => {
    expect(skillListing([], 8000)).toBeUndefined();
    expect(skillListing([skill("m", "manual", { disableModelInvocation: true })], 8000)).toBeUndefined();
  });

  test("over budget, entries shrink to their names, then get descriptions back in order while they fit", () => {
    const notes: string[] = [];
    const text = skillListing([skill("a", "x".repeat(50)), skill("b", "y".repeat(50)), skill("c", "z".repeat(10))], 90, (l) => notes.push(l))!;
    expect(text.split("\n").slice(2)).toEqual([`- a: ${"x".repeat(50)}`, "- b", `- c: ${"z".repeat(10)}`]);
    expect(notes).toHaveLength(1);
  });

  test("the budget: SLASH_COMMAND_TOOL_CHAR_BUDGET, else 1 % of the window at 4 characters a token", () => {
    expect(listingBudget(undefined, {})).toBe(8000);
    expect(listingBudget(1_000_000, {})).toBe(40_000);
    expect(listingBudget(200_000, { SLASH_COMMAND_TOOL_CHAR_BUDGET: "123" })).toBe(123);
  });
});

describe("renderBody", () => {
  test("$ARGUMENTS, 0-based $N from shell words, ${CLAUDE_SKILL_DIR}; missing words are empty", () => {
    expect(renderBody("to $ARGUMENTS; $0 then $1 then $5; in ${CLAUDE_SKILL_DIR}", '"staging env" now', "/s")).toBe(
      'to "staging env" now; staging env then now then ; in /s',
    );
  });

  test("a body that never mentions its arguments gets them appended, as Claude Code does", () => {
    expect(renderBody("Body\n", "a b", "/s")).toBe("Body\n\n\nARGUMENTS: a b");
    expect(renderBody("Body\n", "", "/s")).toBe("Body\n");
  });
});

describe("tool search", () => {
  test("the Skill tool, however long, does not count toward the threshold: MCP tools below it still go out in full", async () => {
    const { ToolSearch } = await import("../../../../lib/agent/tool-search/tool-search.ts");
    const { skillTool } = await import("../../../../lib/agent/skills/skill-tool.ts");
    const huge = { ...skillTool({ find: () => undefined }), description: "s".repeat(2_000_000) };
    const mcp = { name: "mcp__srv__echo", description: "echo", inputSchema: { type: "object" as const }, run: async () => ({ content: "" }) };
    const search = new ToolSearch({ kind: "auto", percent: 10 }, (name) => (name === mcp.name ? { server: "srv", tool: "echo" } : undefined));
    const offer = search.offer([huge, mcp], "claude-sonnet-4-6");
    expect(offer.definitions.map((d) => d.name)).toEqual(["Skill", "mcp__srv__echo"]);
    expect(search.isActive).toBe(false);
  });
});
