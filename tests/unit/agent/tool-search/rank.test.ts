/**
 * ToolSearch's ranking (lib/agent/tool-search/rank.ts) among the 418 survey tools: the right tool for
 * queries a model would write, `+word`, and queries that match nothing.
 */
import { describe, expect, test } from "bun:test";
import { SURVEY } from "../../../../fixtures/servers/survey-catalog.ts";
import { rankTools, words, type RankedTool } from "../../../../lib/agent/tool-search/rank.ts";

const TOOLS: RankedTool[] = Object.entries(SURVEY).flatMap(([server, tools]) =>
  tools.map((t) => ({
    name: `mcp__${server}__${t.name}`,
    tool: t.name,
    server,
    description: t.description,
    args: Object.keys(t.inputSchema.properties),
    argText: Object.values(t.inputSchema.properties)
      .map((p) => p.description)
      .join(" "),
  })),
);
const top = (query: string, n = 1) => rankTools(TOOLS, query, n).map((t) => t.name);

test("the survey has 418 tools from 24 servers", () => {
  expect(TOOLS).toHaveLength(418);
  expect(Object.keys(SURVEY)).toHaveLength(24);
});

describe("the right tool first", () => {
  const cases: [string, string][] = [
    ["take a screenshot of the web page", "mcp__playwright__browser_take_screenshot"],
    ["create github issue", "mcp__github__create_issue"],
    ["merge a pull request", "mcp__github__merge_pull_request"],
    ["post a message to a slack channel", "mcp__slack__slack_post_message"],
    ["resolve sentry issue", "mcp__sentry__update_issue"],
    ["jira transition issue status", "mcp__jira__jira_transition_issue"],
    ["reply in a slack thread", "mcp__slack__slack_reply_to_thread"],
    ["query notion database", "mcp__notion__query_database"],
    ["refund payment", "mcp__stripe__create_refund"],
    ["search the web", "mcp__brave-search__brave_web_search"],
    ["deploy cloudflare worker", "mcp__cloudflare__worker_deploy"],
    ["gitlab job log", "mcp__gitlab__get_job_log"],
    ["kubectl logs of a pod", "mcp__kubernetes__kubectl_logs"],
    ["createIssue gitlab", "mcp__gitlab__create_issue"],
  ];
  for (const [query, expected] of cases) {
    test(query, () => expect(top(query)).toEqual([expected]));
  }
});

test("argument names count: pull_number finds pull request tools", () => {
  expect(top("pull_number", 5).every((n) => n.startsWith("mcp__github__"))).toBe(true);
});

test("+word requires the word in the tool's or server's name", () => {
  const hits = rankTools(TOOLS, "+gitlab branch", 10);
  expect(hits.length).toBeGreaterThan(0);
  expect(hits.every((t) => t.server === "gitlab")).toBe(true);
  expect(hits[0]!.name).toBe("mcp__gitlab__create_branch");
});

test("nothing to match: no results, and stop words alone are no query", () => {
  expect(top("xylophone quaternion", 5)).toEqual([]);
  expect(top("the of to", 5)).toEqual([]);
});

test("words: camelCase and snake_case split, plurals folded", () => {
  expect(words("get_pullRequest files")).toEqual(["get", "pull", "request", "file"]);
  expect(words("access class")).toEqual(["access", "class"]);
});
