/**
 * WebSearch through the real program and a scripted model: the nested request with the API's
 * `web_search_20250305` server tool (and the domain filters), the sources as Markdown links in the
 * result, the searches counted in cost, and an endpoint that refuses the server tool as one error
 * result while the run goes on.
 */
import { afterEach, expect, test } from "bun:test";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let model: ModelServer | undefined;
afterEach(() => model?.stop());

/** The nested request's reply as the API gives it: a search, its results, and the summary. */
const searched: Step = {
  content: [
    { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun release" } },
    {
      type: "web_search_tool_result",
      tool_use_id: "srvtoolu_1",
      content: [
        { type: "web_search_result", url: "https://bun.sh/blog/bun-v1", title: "Bun 1.0", encrypted_content: "x" },
        { type: "web_search_result", url: "https://example.org/[odd]", title: "Odd [title]\u001b[2J", encrypted_content: "y" },
      ],
    },
    { type: "text", text: "Bun 1.0 was released in September 2023." },
  ] as never,
  stop_reason: "end_turn",
  usage: { input_tokens: 100, output_tokens: 20, server_tool_use: { web_search_requests: 1 } } as never,
};

async function run(script: Step[], input: Record<string, unknown>) {
  model = startModelServer([reply(toolUse("WebSearch", input)), ...script, reply(text("done"))]);
  const r = await runAgent(["-p", "search", "--allowedTools", "WebSearch", "--output-format", "json", "--model", "claude-sonnet-4-6"], {
    cwd: tempDir(),
    model: model.url,
  });
  const block = model.requests
    .at(-1)!
    .body.messages.at(-1)
    .content.find((b: { type: string }) => b.type === "tool_result");
  return { ...r, result: { content: String(block.content), is_error: block.is_error as boolean | undefined } };
}

test("a nested request with the server tool; the result lists the sources as links; the search is priced", async () => {
  const r = await run([searched], { query: "bun release", allowed_domains: ["bun.sh"] });
  expect(r.code).toBe(0);
  const nested = model!.requests[1]!.body;
  expect(nested.tools).toEqual([{ type: "web_search_20250305", name: "web_search", max_uses: 8, allowed_domains: ["bun.sh"] }]);
  expect(JSON.stringify(nested.messages)).toContain("Perform a web search for the query: bun release");
  expect(r.result.is_error).toBeUndefined();
  expect(r.result.content).toStartWith('Web search results for query: "bun release"');
  expect(r.result.content).toContain("Bun 1.0 was released in September 2023.");
  expect(r.result.content).toContain("- [Bun 1.0](https://bun.sh/blog/bun-v1)");
  // The title's escape sequence lost its ESC (and the brackets a link cannot hold): nothing of it reaches a terminal.
  expect(r.result.content).toContain("- [Odd title2J](https://example.org/[odd])");
  // claude-sonnet-4-6: three calls' tokens at $3/$15 per million, plus $0.01 for the one search.
  const tokens = (10 * 3 + 5 * 15 + 100 * 3 + 20 * 15 + 10 * 3 + 5 * 15) / 1_000_000;
  expect(JSON.parse(r.stdout).total_cost_usd).toBeCloseTo(tokens + 0.01, 8);
});

test("an endpoint that refuses the server tool is one error result, and the run goes on", async () => {
  const refused: Step = { status: 400, error: { type: "invalid_request_error", message: "tools.0: Input tag 'web_search_20250305' is not supported" } };
  const r = await run([refused], { query: "anything" });
  expect(r.code).toBe(0);
  expect(r.result.is_error).toBe(true);
  expect(r.result.content).toContain("web search is not available here");
  expect(JSON.parse(r.stdout).result).toBe("done");
});

test("bad input: a one-letter query, or both domain lists", async () => {
  expect((await run([], { query: "x" })).result.content).toContain("at least 2 characters");
  model!.stop();
  expect((await run([], { query: "xy", allowed_domains: ["a.test"], blocked_domains: ["b.test"] })).result.content).toContain("not both");
});
