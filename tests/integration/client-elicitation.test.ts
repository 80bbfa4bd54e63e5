/**
 * McpClient against the real fixture server (`--elicitation-tools`): a tool call's timeout stands
 * still while we serve the server's own request (a form, a sampling request), and resumes with the
 * time it had left; `notifications/elicitation/complete` reaches the feature's listener.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { McpClient } from "../../lib/mcp/session/client.ts";
import type { ClientFeatures } from "../../lib/mcp/session/features.ts";
import { RequestTimeoutError } from "../../lib/mcp/protocol/errors.ts";
import { StdioTransport } from "../../lib/mcp/transports/stdio.ts";
import { BUN, FIXTURE_SERVER, tempDir } from "../support/run.ts";

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close(100)));
});

async function connected(features: ClientFeatures): Promise<McpClient> {
  const transport = StdioTransport.spawn({ name: "fx", command: BUN, args: [FIXTURE_SERVER, "--elicitation-tools"], env: {} }, { cwd: tempDir() });
  const client = new McpClient("fx", transport, { features });
  open.push(client);
  await client.connect({ timeoutMs: 10_000 });
  return client;
}

/** The tool timeout of these calls (ms); the person "answering" takes twice as long. */
const TOOL_TIMEOUT_MS = 1500;
const personAnswering = () => Bun.sleep(2 * TOOL_TIMEOUT_MS);
const textOf = (result: { content?: unknown[] }) => (result.content as { text?: string }[] | undefined)?.map((b) => b.text).join("\n");

describe("a tool call waiting on us does not time out", () => {
  test("a form answered after the call's whole timeout: the call still succeeds", async () => {
    const client = await connected({
      elicitation: {
        url: false,
        handle: async () => {
          await personAnswering();
          return { action: "accept", content: { name: "Bo" } };
        },
      },
    });
    const result = await client.callTool("elicit", {}, { timeoutMs: TOOL_TIMEOUT_MS });
    expect(JSON.parse(textOf(result)!)).toEqual({ action: "accept", content: { name: "Bo" } });
  });

  test("so does a sampling request that waits (on consent, on the model)", async () => {
    const client = await connected({
      sampling: async () => {
        await personAnswering();
        return { role: "assistant", content: { type: "text", text: "late but fine" }, model: "m" };
      },
    });
    expect(textOf(await client.callTool("sample", { prompt: "hi" }, { timeoutMs: TOOL_TIMEOUT_MS }))).toBe("late but fine");
  });

  test("without a server request in progress the timeout still fires, also after one was served", async () => {
    const client = await connected({ elicitation: { url: false, handle: async () => ({ action: "decline" }) } });
    expect(JSON.parse(textOf(await client.callTool("elicit", {}, { timeoutMs: 10_000 }))!)).toEqual({ action: "decline" });
    const slow = client.callTool("slow", { ms: 60_000 }, { timeoutMs: 300 });
    // A request served while `slow` runs pauses its clock only for that while.
    await client.callTool("elicit", {}, { timeoutMs: 10_000 });
    const error = await slow.catch((e) => e);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.message).toBe('MCP server "fx": tools/call timed out after 300 ms');
  });
});

describe("URL mode", () => {
  test("notifications/elicitation/complete reaches onComplete with the server and the request's elicitationId", async () => {
    const asked: string[] = [];
    let completed!: (v: [string, string]) => void;
    const complete = new Promise<[string, string]>((resolve) => (completed = resolve));
    const client = await connected({
      elicitation: {
        url: true,
        handle: async (params) => {
          if (params.mode === "url") asked.push(params.elicitationId);
          return { action: "accept" };
        },
        onComplete: (server, id) => completed([server, id]),
      },
    });
    expect(JSON.parse(textOf(await client.callTool("elicit_url", {}, { timeoutMs: 10_000 }))!)).toEqual({ action: "accept" });
    expect(await complete).toEqual(["fx", asked[0]!]);
  });
});
