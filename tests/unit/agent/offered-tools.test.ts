/**
 * The one rule for the agent's own tools on offer (offered-tools.ts): today's set, --tools' choice,
 * and an opt-in tool only when a flag, --allowedTools, the process environment or the project's own
 * settings files ask for it; the interactive session offers them all. A user's home is no input.
 */
import { describe, expect, test } from "bun:test";
import { asksFor, OPT_IN, type OfferContext, offeredTools, type OptIn, toolsFlagNames } from "../../../lib/agent/offered-tools.ts";

const TODAY = ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "Skill"].map((name) => ({ name }));
const NEW = { name: "NewTool" };
const OPT_INS: Record<string, OptIn> = { NewTool: { env: "AGENT_NEW_TOOL", project: (docs) => docs.some((d) => d.model === "wants-new-tool") } };

const ctx = (over: Partial<OfferContext> = {}): OfferContext => ({
  everyOptIn: false,
  allowedTools: [],
  flagged: new Set(),
  env: {},
  projectDocs: [],
  ...over,
});
const names = (over: Partial<OfferContext>) => offeredTools([...TODAY, NEW], ctx(over), OPT_INS).map((t) => t.name);
const TODAY_NAMES = TODAY.map((t) => t.name);

describe("today's set", () => {
  test("is offered whole, and an opt-in tool is not, when nothing asks", () => {
    expect(names({})).toEqual(TODAY_NAMES);
  });

  test('--tools: names keep only those, "" none, "default" today\'s set', () => {
    expect(names({ tools: "Read,Bash" })).toEqual(["Read", "Bash"]);
    expect(names({ tools: "Read Grep" })).toEqual(["Read", "Grep"]);
    expect(names({ tools: "" })).toEqual([]);
    expect(names({ tools: "default" })).toEqual(TODAY_NAMES);
    expect(toolsFlagNames(undefined)).toBeUndefined();
  });
});

describe("an opt-in tool joins only when asked for", () => {
  const cases: [string, Partial<OfferContext>][] = [
    ["--tools naming it", { tools: "Read,NewTool" }],
    ["--allowedTools naming it", { allowedTools: ["NewTool(domain:example.com)"] }],
    ["its own flag", { flagged: new Set(["NewTool"]) }],
    ["its variable in the process environment", { env: { AGENT_NEW_TOOL: "1" } }],
    ["a project rule naming it", { projectDocs: [{ permissions: { allow: ["NewTool"] } }] }],
    ["its own key in the project's files", { projectDocs: [{ model: "wants-new-tool" }] }],
    ["the interactive session", { everyOptIn: true }],
  ];
  for (const [name, over] of cases) test(name, () => expect(names(over)).toContain("NewTool"));

  test("a variable set to something that is not yes, a deny rule, or another tool's rule does not ask", () => {
    expect(asksFor("NewTool", ctx({ env: { AGENT_NEW_TOOL: "0" } }), OPT_INS.NewTool)).toBe(false);
    expect(asksFor("NewTool", ctx({ projectDocs: [{ permissions: { deny: ["NewTool"] } }] }), OPT_INS.NewTool)).toBe(false);
    expect(asksFor("NewTool", ctx({ allowedTools: ["NewToolbox"] }), OPT_INS.NewTool)).toBe(false);
  });

  test("--tools without it keeps it out even when the environment asks", () => {
    expect(names({ tools: "Read", env: { AGENT_NEW_TOOL: "1" } })).toEqual(["Read"]);
  });
});

describe("this round's tools are registered with the one rule", () => {
  test("WebFetch and WebSearch by AGENT_WEB_TOOLS or a rule; NotebookEdit by a flag or rule only; nothing else decides", () => {
    const real = (over: Partial<OfferContext>) =>
      offeredTools([{ name: "Read" }, { name: "WebFetch" }, { name: "WebSearch" }, { name: "NotebookEdit" }], ctx(over)).map((t) => t.name);
    expect(real({})).toEqual(["Read"]);
    expect(real({ env: { AGENT_WEB_TOOLS: "1" } })).toEqual(["Read", "WebFetch", "WebSearch"]);
    expect(real({ allowedTools: ["WebFetch(domain:a.test)"] })).toEqual(["Read", "WebFetch"]);
    expect(real({ projectDocs: [{ permissions: { ask: ["NotebookEdit"] } }] })).toEqual(["Read", "NotebookEdit"]);
    expect(real({ everyOptIn: true })).toEqual(["Read", "WebFetch", "WebSearch", "NotebookEdit"]);
    expect(Object.keys(OPT_IN).sort()).toEqual(["NotebookEdit", "WebFetch", "WebSearch"]);
  });
});
