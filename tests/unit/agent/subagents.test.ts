/**
 * The pure pieces of subagents: front matter to a definition, the -p offer rule, which tools a
 * subagent gets, the model it runs on, the listing's budget and the report's shape.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentAskedFor } from "../../../lib/agent/subagents/offered.ts";
import { type OfferContext, offers } from "../../../lib/agent/offered-tools.ts";
import { parseDefinition, validAgentName } from "../../../lib/agent/subagents/parse.ts";
import { subagentTools } from "../../../lib/agent/subagents/toolset.ts";
import { resolveSubagentModel } from "../../../lib/agent/subagents/model.ts";
import { agentListing } from "../../../lib/agent/subagents/listing.ts";
import { subagentReport } from "../../../lib/agent/subagents/report.ts";
import { builtinAgents } from "../../../lib/agent/subagents/builtin.ts";
import type { Tool } from "../../../lib/tools/tool.ts";
import { tempDir } from "../../support/run.ts";

const tool = (name: string): Tool => ({ name, description: "", inputSchema: { type: "object" }, run: async () => ({ content: "" }) });
const match = {
  matches: (name: string, rule: string) => name === rule || (rule.startsWith("mcp__") && name.startsWith(`${rule}__`)),
  server: (name: string) => (name.startsWith("mcp__") ? name.split("__")[1] : undefined),
};
const PARENT = ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "Agent", "mcp__srv__ping", "mcp__other__x", "StructuredOutput"].map(tool);

describe("parseDefinition", () => {
  test("Claude Code's keys; tools as a comma list or a list; mcpServers as names and one-key maps", () => {
    const p = parseDefinition(
      {
        name: "r",
        description: "d",
        tools: "Read, mcp__srv__ping",
        disallowedTools: ["Bash"],
        model: "haiku",
        maxTurns: 3,
        mcpServers: ["srv", { own: { command: "x" } }],
        color: "red",
      },
      "BODY",
      "file",
      "project",
      "/p/r.md",
    );
    expect("definition" in p && p.definition).toMatchObject({
      name: "r",
      prompt: "BODY",
      tools: ["Read", "mcp__srv__ping"],
      disallowedTools: ["Bash"],
      model: "haiku",
      maxTurns: 3,
      mcpServers: { names: ["srv"], inline: [{ name: "own", config: { command: "x" } }] },
    });
  });

  test("no description: skipped quietly; a bad name, maxTurns or unknown tool: one line", () => {
    expect(parseDefinition({ name: "x" }, "", "x", "user", "f")).toMatchObject({ skipped: 'f: agent "x" has no description; skipped', quiet: true });
    expect(parseDefinition({ name: "a/b", description: "d" }, "", "x", "user", "f")).toMatchObject({ skipped: expect.stringContaining("is not allowed") });
    const p = parseDefinition({ description: "d", tools: ["Nope"], maxTurns: 0 }, "", "x", "user", "f");
    expect(p.warnings).toEqual([
      'f: agent "x" names an unknown tool "Nope"; it is left out',
      'f: agent "x": maxTurns must be a whole number of at least 1 (got 0); ignored',
    ]);
  });

  test("names: no control characters, slashes, colons or ..", () => {
    for (const bad of ["a\u001b", "a/b", "a:b", "a..b", "..", "", "-x"]) expect(validAgentName(bad)).toBe(false);
    for (const good of ["general-purpose", "Explore", "code_reviewer.v2"]) expect(validAgentName(good)).toBe(true);
  });
});

describe("whether -p offers the Agent tool (agentAskedFor, with the one offer rule)", () => {
  const base = { allowedTools: [], agentsFlag: false, cwd: tempDir() };
  const ctx = (over: Partial<OfferContext>): OfferContext => ({ mode: "print", env: {}, allowedTools: [], rules: [], ...over });
  test("-p: only a flag, the environment or the working directory's own agent files", () => {
    expect(agentAskedFor(base)).toBe(false);
    expect(offers("Agent", ctx({}))).toBe(false);
    expect(offers("Agent", ctx({ mode: "session" }))).toBe(true);
    expect(agentAskedFor({ ...base, agentsFlag: true })).toBe(true);
    expect(agentAskedFor({ ...base, allowedTools: ["Task"] })).toBe(true);
    expect(agentAskedFor({ ...base, tools: "Read,Agent" })).toBe(true);
    expect(offers("Agent", ctx({ tools: "Read,Task", flagged: new Set(["Agent"]) }))).toBe(true);
    expect(offers("Agent", ctx({ env: { AGENT_SUBAGENTS: "1" } }))).toBe(true);
    expect(offers("Agent", ctx({ env: { AGENT_SUBAGENTS: "0" } }))).toBe(false);
    const cwd = tempDir();
    mkdirSync(join(cwd, ".claude", "agents"), { recursive: true });
    expect(agentAskedFor({ ...base, cwd })).toBe(false);
    writeFileSync(join(cwd, ".claude", "agents", "a.md"), "x");
    expect(agentAskedFor({ ...base, cwd })).toBe(true);
  });
});

describe("subagentTools", () => {
  const names = (def: object, depth = 1) =>
    subagentTools({ name: "t", description: "d", prompt: "", source: "flag", ...def }, PARENT, depth, match).map((t) => t.name);
  test("Claude Code 2.1.332's cases", () => {
    expect(names({})).toEqual(["Read", "Write", "Edit", "Bash", "Glob", "Grep", "Agent", "mcp__srv__ping", "mcp__other__x"]);
    expect(names({ tools: ["Read", "mcp__srv__ping"] })).toEqual(["Read", "mcp__srv__ping"]);
    expect(names({ tools: ["Read", "Bash"] })).toEqual(["Read", "Bash"]);
    expect(names({ disallowedTools: ["Bash"] })).not.toContain("Bash");
    expect(names({ tools: ["Task"] })).toEqual(["Agent"]);
    expect(names({ mcpServers: { names: ["srv"], inline: [] } })).not.toContain("mcp__other__x");
    expect(names({}, 2)).not.toContain("Agent");
    const explore = builtinAgents().find((a) => a.name === "Explore")!;
    expect(subagentTools(explore, PARENT, 1, match).map((t) => t.name)).toEqual(["Read", "Bash", "Glob", "Grep", "mcp__srv__ping", "mcp__other__x"]);
  });
});

test("models: inherit, aliases, table ids; anything else refused", () => {
  expect(resolveSubagentModel(undefined, "claude-x")).toEqual({ model: "claude-x" });
  expect(resolveSubagentModel("inherit", "claude-x")).toEqual({ model: "claude-x" });
  expect(resolveSubagentModel("haiku", "claude-x")).toEqual({ model: expect.stringMatching(/^claude-haiku-/) });
  expect(resolveSubagentModel("claude-sonnet-4-6", "claude-x")).toEqual({ model: "claude-sonnet-4-6" });
  expect(resolveSubagentModel("gpt-7", "claude-x")).toMatchObject({ error: expect.stringContaining('unknown model "gpt-7"') });
});

test("the listing keeps to its budget: descriptions go first, then entries are counted", () => {
  const many = Array.from({ length: 3000 }, (_, i) => ({ name: `a${i}`, description: "x".repeat(100), prompt: "", source: "user" as const }));
  let warned = "";
  const text = agentListing(many, 200_000, (l) => {
    warned = l;
  })!;
  expect(text.length).toBeLessThan(8000 + 400);
  expect(warned).toContain("over its budget");
  expect(text).toContain("more agent types are not listed here");
});

test("the report: every line indented, then the id and usage", () => {
  expect(subagentReport("one\ntwo", { agentId: "a0123456789abcdef", tokens: 5, toolUses: 1, durationMs: 7 })).toEndWith(
    "\n  one\n  two\nagentId: a0123456789abcdef\n<usage>subagent_tokens: 5 / tool_uses: 1 / duration_ms: 7</usage>",
  );
});
