/**
 * Tool search through the real program, with the survey's 418 tools served by three fixture
 * servers: above the threshold the first request is small and a ToolSearch call loads the right
 * tool for the next request; below it (or for an unknown model, or switched off) every tool goes
 * out in full.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SURVEY } from "../../../fixtures/servers/survey-catalog.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { BUN, ROOT } from "../../support/run.ts";
import { offered, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";

afterEach(stopProjects);

const SURVEY_SERVER = join(ROOT, "fixtures/servers/survey-server.ts");
const survey = (...flags: string[]) => ({ command: BUN, args: [SURVEY_SERVER, ...flags] });
/** The 418 tools as three servers: github and playwright on their own, the other 22 as one. */
const SERVERS = {
  github: survey("--only", "github"),
  playwright: survey("--only", "playwright"),
  rest: survey("--except", "github,playwright"),
};
const BUILTINS = ["Read", "Write", "Edit", "Bash", "Glob", "Grep"];
const TOTAL = Object.values(SURVEY).reduce((n, tools) => n + tools.length, 0);
// 200K-token window: the survey's definitions (about 55K tokens) pass 10 % of it.
const SMALL_WINDOW = ["--model", "claude-haiku-4-5"];

describe("above the threshold", () => {
  test("first request small; ToolSearch finds the tool; the next request carries it and calls it", async () => {
    const p = project(SERVERS, [
      reply(toolUse("ToolSearch", { query: "take a screenshot of the page" })),
      reply(toolUse("mcp__playwright__browser_take_screenshot", { fullPage: true })),
      reply(text("done")),
    ]);
    const r = await p.run("screenshot please", { args: SMALL_WINDOW });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    const [first, second, third] = p.model.requests;
    expect(toolNames(first!)).toEqual([...BUILTINS, "ToolSearch"]);
    const search = offered(first!).get("ToolSearch")!;
    // Every deferred tool is named, with its server.
    expect(search.description).toContain(`${TOTAL} deferred tools, by server`);
    expect(search.description).toContain("\n- playwright: mcp__playwright__*: browser_navigate, browser_navigate_back, ");
    expect(search.description).toMatch(/\n- rest: mcp__rest__\*: .*, google_drive_gsheets_read, /);
    const full = JSON.stringify(SURVEY).length;
    expect(JSON.stringify(first!.body.tools).length).toBeLessThan(full * 0.1);

    const found = toolResult(second!).content as string;
    expect(found.split("\n")[0]).toStartWith("mcp__playwright__browser_take_screenshot (server playwright): Take a screenshot");
    // The matches are loaded (in the servers' order, so the list is the same whatever the search order).
    const names = toolNames(second!);
    expect(names.slice(0, 7)).toEqual([...BUILTINS, "ToolSearch"]);
    expect(names.slice(7).sort()).toEqual(found.match(/^mcp__\S+/gm)!.sort());
    expect(offered(second!).get("mcp__playwright__browser_take_screenshot")!.input_schema.properties.fullPage.type).toBe("boolean");
    // The tools and system sent before stay as they were: only new definitions are added.
    expect(JSON.stringify(second!.body.tools.slice(0, 7))).toBe(JSON.stringify(first!.body.tools));

    expect(toolResult(third!).content).toBe('ran playwright/browser_take_screenshot with {"fullPage":true}');
    expect(toolNames(third!)).toEqual(toolNames(second!));
  });

  test("select: loads tools by exact name; a deferred tool called without a search still runs, and is loaded", async () => {
    const p = project(SERVERS, [
      reply(toolUse("mcp__github__create_issue", { owner: "o", repo: "r", title: "t" })),
      reply(toolUse("ToolSearch", { query: "select:mcp__rest__slack_slack_post_message,get_me" })),
      reply(text("done")),
    ]);
    const r = await p.run("go", { args: SMALL_WINDOW });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const [, second, third] = p.model.requests;
    expect(toolResult(second!).content).toBe('ran github/create_issue with {"owner":"o","repo":"r","title":"t"}');
    expect(toolNames(second!)).toEqual([...BUILTINS, "ToolSearch", "mcp__github__create_issue"]);
    expect(toolNames(third!)).toEqual([...BUILTINS, "ToolSearch", "mcp__github__create_issue", "mcp__github__get_me", "mcp__rest__slack_slack_post_message"]);
  });
});

describe("below the threshold, or not started", () => {
  const everything = [...BUILTINS];
  for (const tool of SURVEY.github!) everything.push(`mcp__github__${tool.name}`);
  for (const tool of SURVEY.playwright!) everything.push(`mcp__playwright__${tool.name}`);

  for (const [what, args, env] of [
    ["the default model's 1M window: below 10 %", [], {}],
    ["an unknown model: no window, no tool search", ["--model", "my-proxy-model"], {}],
    ["ENABLE_TOOL_SEARCH=false", SMALL_WINDOW, { ENABLE_TOOL_SEARCH: "false" }],
  ] as const) {
    test(`${what}: every tool in full`, async () => {
      const p = project(SERVERS, [reply(text("ok"))]);
      const r = await p.run("hi", { args: [...args], env });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "ok\n", ""]);
      const names = toolNames(p.model.requests[0]!);
      expect(names).toHaveLength(BUILTINS.length + TOTAL);
      expect(names.slice(0, everything.length)).toEqual(everything);
      expect(names).not.toContain("ToolSearch");
    });
  }

  test("ENABLE_TOOL_SEARCH=auto:1 starts it for the default model; a bad value is one line, then auto", async () => {
    const on = project(SERVERS, [reply(text("ok"))]);
    expect((await on.run("hi", { env: { ENABLE_TOOL_SEARCH: "auto:1" } })).code).toBe(0);
    expect(toolNames(on.model.requests[0]!)).toEqual([...BUILTINS, "ToolSearch"]);
    const bad = project(SERVERS, [reply(text("ok"))]);
    const r = await bad.run("hi", { env: { ENABLE_TOOL_SEARCH: "sometimes" } });
    expect(r.stderr.trim()).toBe('ENABLE_TOOL_SEARCH: "sometimes" is not auto, auto:N (0-100), true, false or server; using auto');
    expect(toolNames(bad.model.requests[0]!)).toHaveLength(BUILTINS.length + TOTAL);
  });

  test("ENABLE_TOOL_SEARCH=server: every tool sent, MCP ones with defer_loading, plus the API's search tool", async () => {
    const p = project({ github: survey("--only", "github") }, [reply(text("ok"))]);
    expect((await p.run("hi", { env: { ENABLE_TOOL_SEARCH: "server" } })).code).toBe(0);
    const tools = p.model.requests[0]!.body.tools;
    expect(tools.at(-1)).toEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
    expect(tools.filter((t: any) => t.defer_loading === true)).toHaveLength(SURVEY.github!.length);
    expect(tools.slice(0, BUILTINS.length).some((t: any) => "defer_loading" in t)).toBe(false);
  });
});
