/**
 * The one rule for the agent's own tools on offer (offered-tools.ts): today's set, --tools' choice,
 * and an opt-in tool (WebFetch, and each tool this round adds) offered by default in the session and
 * host mode, in -p only when --tools, --allowedTools, its own flag, its variable in the process
 * environment, or a project, local or --settings rule asks for it. A user's home never does.
 */
import { describe, expect, test } from "bun:test";
import { asksFor, NOTHING_ASKED, OPT_IN, type OfferContext, offeredTools, type OptIn, toolsFlagNames } from "../../../lib/agent/offered-tools.ts";

const TODAY = ["Read", "Write", "Edit", "Bash", "Glob", "Grep", "Skill"].map((name) => ({ name }));
const NEW = { name: "NewTool" };
const OPT_INS: Record<string, OptIn> = { NewTool: { env: "AGENT_NEW_TOOL" } };

const ctx = (over: Partial<OfferContext> = {}): OfferContext => ({ mode: "print", env: {}, allowedTools: [], rules: [], ...over });
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

describe("an opt-in tool joins -p only when asked for", () => {
  const cases: [string, Partial<OfferContext>][] = [
    ["--tools naming it", { tools: "Read,NewTool" }],
    ["--allowedTools naming it", { allowedTools: ["NewTool(domain:example.com)"] }],
    ["its own flag", { flagged: new Set(["NewTool"]) }],
    ["its variable in the process environment", { env: { AGENT_NEW_TOOL: "1" } }],
    ["a project rule naming it", { rules: [{ text: "NewTool", behavior: "ask", scope: "project" }] }],
    ["the interactive session", { mode: "session" }],
    ["host mode", { mode: "host" }],
  ];
  for (const [name, over] of cases) test(name, () => expect(names(over)).toContain("NewTool"));

  test("--tools without it keeps it out even when the environment asks", () => {
    expect(names({ tools: "Read", env: { AGENT_NEW_TOOL: "1" } })).toEqual(["Read"]);
  });
});

describe("WebFetch, registered as opt-in", () => {
  const base = ctx();

  test("the session and host mode offer them by default; -p does not", () => {
    expect(asksFor("WebFetch", { ...base, mode: "session" })).toBe(true);
    expect(asksFor("WebFetch", { ...base, mode: "host" })).toBe(true);
    expect(asksFor("WebFetch", base)).toBe(false);
  });

  test("-p: a flag, the environment, or a project, local or flag settings rule", () => {
    expect(asksFor("WebFetch", { ...base, allowedTools: ["WebFetch(domain:a.test)"] })).toBe(true);
    expect(asksFor("WebFetch", { ...base, env: { AGENT_WEB_TOOLS: "1" } })).toBe(true);
    expect(asksFor("WebFetch", { ...base, env: { AGENT_WEB_TOOLS: "0" } })).toBe(false);
    for (const scope of ["project", "local", "flag"]) {
      expect(asksFor("WebFetch", { ...base, rules: [{ text: "WebFetch", behavior: "allow", scope }] })).toBe(true);
    }
  });

  test("-p: never a rule in the user's home, a deny rule, or a rule naming another tool", () => {
    expect(asksFor("WebFetch", { ...base, rules: [{ text: "WebFetch", behavior: "allow", scope: "user" }] })).toBe(false);
    expect(asksFor("WebFetch", { ...base, rules: [{ text: "WebFetch", behavior: "deny", scope: "project" }] })).toBe(false);
    expect(asksFor("WebFetch", { ...base, allowedTools: ["WebFetchX", "Bash"] })).toBe(false);
  });
});

describe("this round's tools are registered with the one rule", () => {
  test("WebFetch and WebSearch by AGENT_WEB_TOOLS or a rule; NotebookEdit by a flag or rule only; no context offers none", () => {
    const real = (over: Partial<OfferContext>) =>
      offeredTools([{ name: "Read" }, { name: "WebFetch" }, { name: "WebSearch" }, { name: "NotebookEdit" }], ctx(over)).map((t) => t.name);
    expect(real({})).toEqual(["Read"]);
    expect(real({ env: { AGENT_WEB_TOOLS: "1" } })).toEqual(["Read", "WebFetch", "WebSearch"]);
    expect(real({ allowedTools: ["WebFetch(domain:a.test)"] })).toEqual(["Read", "WebFetch"]);
    expect(real({ rules: [{ text: "NotebookEdit", behavior: "ask", scope: "project" }] })).toEqual(["Read", "NotebookEdit"]);
    expect(real({ mode: "host" })).toEqual(["Read", "WebFetch", "WebSearch", "NotebookEdit"]);
    expect(offeredTools([{ name: "Read" }, { name: "WebFetch" }], NOTHING_ASKED).map((t) => t.name)).toEqual(["Read"]);
    expect(Object.keys(OPT_IN).sort()).toEqual([
      "Agent",
      "AskUserQuestion",
      "ExitPlanMode",
      "Monitor",
      "NotebookEdit",
      "TaskCreate",
      "TaskGet",
      "TaskList",
      "TaskStop",
      "TaskUpdate",
      "TodoWrite",
      "WebFetch",
      "WebSearch",
    ]);
  });

  test("ExitPlanMode and AskUserQuestion: the session and host mode only, never -p whatever asks", () => {
    const real = (over: Partial<OfferContext>) =>
      offeredTools([{ name: "Read" }, { name: "ExitPlanMode" }, { name: "AskUserQuestion" }], ctx(over)).map((t) => t.name);
    expect(real({})).toEqual(["Read"]);
    expect(real({ tools: "Read,ExitPlanMode,AskUserQuestion" })).toEqual(["Read"]);
    expect(real({ allowedTools: ["ExitPlanMode", "AskUserQuestion"] })).toEqual(["Read"]);
    expect(real({ rules: [{ text: "AskUserQuestion", behavior: "allow", scope: "project" }] })).toEqual(["Read"]);
    expect(real({ mode: "session" })).toEqual(["Read", "ExitPlanMode", "AskUserQuestion"]);
    expect(real({ mode: "host" })).toEqual(["Read", "ExitPlanMode", "AskUserQuestion"]);
  });

  test("the task list: in -p by CLAUDE_CODE_ENABLE_TODO_TOOLS, --tools or --allowedTools; by default in the session", () => {
    const list = [{ name: "Read" }, { name: "TaskCreate" }, { name: "TaskList" }];
    const real = (over: Partial<OfferContext>) => offeredTools(list, ctx(over)).map((t) => t.name);
    expect(real({})).toEqual(["Read"]);
    expect(real({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" } })).toEqual(["Read", "TaskCreate", "TaskList"]);
    expect(real({ env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "0" } })).toEqual(["Read"]);
    // The task list's tools come together: a model that can create tasks can also update them.
    expect(real({ allowedTools: ["TaskCreate"] })).toEqual(["Read", "TaskCreate", "TaskList"]);
    expect(real({ tools: "Read,TaskList" })).toEqual(["Read", "TaskList"]);
    expect(real({ mode: "session" })).toEqual(["Read", "TaskCreate", "TaskList"]);
  });

  test("TaskStop and Monitor come together: AGENT_BACKGROUND_TASKS, or either named by a flag or rule", () => {
    const real = (over: Partial<OfferContext>) => offeredTools([{ name: "Bash" }, { name: "TaskStop" }, { name: "Monitor" }], ctx(over)).map((t) => t.name);
    expect(real({})).toEqual(["Bash"]);
    expect(real({ env: { AGENT_BACKGROUND_TASKS: "1" } })).toEqual(["Bash", "TaskStop", "Monitor"]);
    expect(real({ env: { AGENT_BACKGROUND_TASKS: "0" } })).toEqual(["Bash"]);
    expect(real({ allowedTools: ["TaskStop"] })).toEqual(["Bash", "TaskStop", "Monitor"]);
    expect(real({ tools: "Bash,Monitor" })).toEqual(["Bash", "Monitor"]);
    expect(real({ rules: [{ text: "Monitor", behavior: "allow", scope: "user" }] })).toEqual(["Bash"]);
    expect(real({ mode: "session" })).toEqual(["Bash", "TaskStop", "Monitor"]);
  });
});
