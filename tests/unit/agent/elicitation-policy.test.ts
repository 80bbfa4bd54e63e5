/** The headless `--elicitation` policies (lib/agent/elicitation-policy.ts) and the flag's parsing. */
import { describe, expect, test } from "bun:test";
import { elicitationPolicy } from "../../../lib/agent/elicitation-policy.ts";
import { parseCliArgs, UsageError } from "../../../lib/cli/flags/args.ts";
import { parseInspectorArgs } from "../../../lib/cli/commands/mcp/args.ts";
import { McpError } from "../../../lib/mcp/protocol/errors.ts";
import { declaredCapabilities, serveRequest } from "../../../lib/mcp/session/features.ts";

const ctx = { server: "fx", signal: new AbortController().signal };
const form = (properties: Record<string, unknown>, required: string[] = []) => ({
  message: "Who are you?\n\x1b[31m",
  requestedSchema: { type: "object" as const, properties, required },
});

function answer(policy: "accept-defaults" | "decline" | "cancel", params: ReturnType<typeof form>) {
  const lines: string[] = [];
  return { lines, result: elicitationPolicy(policy, (l) => lines.push(l)).handle(params, ctx) };
}

describe("--elicitation policies", () => {
  test("accept-defaults sends the schema's defaults, with one line naming the server and the message on one line", async () => {
    const { lines, result } = answer(
      "accept-defaults",
      form({ name: { type: "string", default: "Ada" }, n: { type: "integer", default: 3 }, note: { type: "string" } }),
    );
    expect(await result).toEqual({ action: "accept", content: { name: "Ada", n: 3 } });
    expect(lines).toEqual(['MCP server "fx" asked for input: "Who are you?" — accepted with its defaults (name, n) (--elicitation accept-defaults)']);
  });

  test("accept-defaults declines, saying why, when a required field has no default", async () => {
    const { lines, result } = answer("accept-defaults", form({ code: { type: "string" } }, ["code"]));
    expect(await result).toEqual({ action: "decline" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEndWith("— declined (--elicitation accept-defaults: the defaults are not a valid answer: code is required)");
  });

  test("decline and cancel answer with that action and no content", async () => {
    for (const policy of ["decline", "cancel"] as const) {
      const { lines, result } = answer(policy, form({}));
      expect(await result).toEqual({ action: policy });
      expect(lines[0]).toEndWith(`— ${policy === "decline" ? "declined" : "cancelled"} (--elicitation ${policy})`);
    }
  });

  test("form only: declared as {form: {}}, and a URL-mode request is refused before the policy", async () => {
    const lines: string[] = [];
    const features = { elicitation: elicitationPolicy("accept-defaults", (l) => lines.push(l)) };
    expect(declaredCapabilities(features)).toEqual({ elicitation: { form: {} } });
    const url = { mode: "url", message: "go", url: "https://example.com", elicitationId: "1" };
    const refused = (await serveRequest(features, "elicitation/create", url, ctx).catch((e) => e)) as McpError;
    expect(refused).toBeInstanceOf(McpError);
    expect(refused.code).toBe(-32602);
    expect(lines).toEqual([]);
  });

  test("a schema that is not a form is the server's error (-32602)", async () => {
    const bad = form({ deep: { type: "object" } });
    expect(((await answer("accept-defaults", bad).result.catch((e) => e)) as McpError).code).toBe(-32602);
  });
});

describe("the flag", () => {
  test("-p and mcp take the three policies; anything else is a usage error naming them", () => {
    expect(parseCliArgs(["-p", "x", "--elicitation", "cancel"]).elicitation).toBe("cancel");
    expect(parseCliArgs(["-p", "x"]).elicitation).toBeUndefined();
    expect(parseInspectorArgs(["call", "--elicitation", "accept-defaults", "fx", "elicit"]).elicitation).toBe("accept-defaults");
    expect(() => parseCliArgs(["-p", "x", "--elicitation", "yes"])).toThrow(
      new UsageError('--elicitation must be accept-defaults, decline or cancel (got "yes")'),
    );
    expect(() => parseInspectorArgs(["list", "--elicitation", "accept"])).toThrow(UsageError);
  });
});
