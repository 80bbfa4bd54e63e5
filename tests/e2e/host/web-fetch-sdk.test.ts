/**
 * WebFetch's guard in host mode, through the real Agent SDK: a loopback address with no allow rule
 * goes to the host's canUseTool a second time, with a decisionReason naming the address; the host's
 * allow fetches it, its deny refuses it. Slow (real processes): SKIP_SLOW=1 skips them locally, never in CI.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";
import { collect } from "../../support/agent-sdk.ts";
import { startWebPages, type WebPages } from "../../support/web-pages.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
const TEST_TIMEOUT_MS = 60_000;

let server: ModelServer | undefined;
let web: WebPages;
beforeAll(() => {
  web = startWebPages();
});
afterAll(() => web.stop());
afterEach(() => server?.stop());

async function fetchWith(path: string, secondAnswer: "allow" | "deny") {
  server = startModelServer([
    reply(toolUse("WebFetch", { url: web.url(path), prompt: "what does it say?" })),
    ...(secondAnswer === "allow" ? [reply(text("the page greets you"))] : []),
    reply(text("done")),
  ]);
  const asked: { name: string; reason?: string }[] = [];
  const canUseTool: Options["canUseTool"] = async (name, input, o) => {
    asked.push({ name, reason: o.decisionReason });
    if (asked.length === 2 && secondAnswer === "deny") return { behavior: "deny", message: "not on my machine" };
    return { behavior: "allow", updatedInput: input };
  };
  const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
  await collect(query({ prompt: "read it", options: { pathToClaudeCodeExecutable: PROGRAM, cwd: tempDir(), env, canUseTool } }));
  return asked;
}

describe.skipIf(SKIP)("WebFetch of a private address in host mode", () => {
  test(
    "the host is asked again with the reason; its allow fetches the page",
    async () => {
      const before = web.seen.length;
      const asked = await fetchWith("/page", "allow");
      expect(asked.map((a) => a.name)).toEqual(["WebFetch", "WebFetch"]);
      expect(asked[0]!.reason).toBeUndefined();
      expect(asked[1]!.reason).toContain("WebFetch would connect to 127.0.0.1, a loopback or private-network address");
      expect(web.seen.slice(before).map((s) => s.path)).toEqual(["/page"]);
      expect(server!.requests[2]!.body.messages.at(-1).content[0].content).toBe("the page greets you");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the host's deny refuses it before any connection",
    async () => {
      const before = web.seen.length;
      await fetchWith("/json", "deny");
      expect(web.seen.length).toBe(before);
      const result = server!.requests[1]!.body.messages.at(-1).content[0];
      expect(result.is_error).toBe(true);
      expect(result.content).toContain("the user refused to let WebFetch reach 127.0.0.1");
    },
    TEST_TIMEOUT_MS,
  );
});
