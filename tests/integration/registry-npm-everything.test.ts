/**
 * The registry against a server we did not write: the npm reference server
 * `@modelcontextprotocol/server-everything` over stdio (run directly, not through npx).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { workingDirectoryRoots } from "../../lib/mcp/session/features.ts";
import { McpRegistry } from "../../lib/mcp/registry/registry.ts";
import { McpToolset } from "../../lib/agent/mcp/tools.ts";
import { mcpReporter } from "../../lib/cli/ui/server-lines.ts";
import { BUN, ROOT, isAlive, tempDir } from "../support/run.ts";

const PACKAGE = join(ROOT, "node_modules/@modelcontextprotocol/server-everything");
const BIN = join(PACKAGE, JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).bin["mcp-server-everything"]);
/** Its package targets Node; Bun runs it too when Node is absent. */
const RUNTIME = Bun.which("node") ?? BUN;

let registry: McpRegistry;
const lines: string[] = [];
const cwd = tempDir();
const samples: unknown[] = [];

beforeAll(async () => {
  registry = await McpRegistry.start([{ type: "stdio", name: "everything", command: RUNTIME, args: [BIN, "stdio"], env: {} }], {
    cwd,
    log: (l) => lines.push(l),
    ...mcpReporter((l) => lines.push(l), {}),
    startupTimeoutMs: 20_000,
    graceMs: 200,
    features: {
      roots: workingDirectoryRoots(cwd),
      sampling: async (params) => {
        samples.push(params);
        return { role: "assistant", content: { type: "text", text: "sampled reply" }, model: "test-model", stopReason: "endTurn" };
      },
    },
  });
});
afterAll(() => registry.shutdown());
let toolset: McpToolset;
beforeAll(() => {
  toolset = new McpToolset(registry, { warn: (l) => lines.push(l) });
});

const run = (name: string, input: Record<string, unknown> = {}) => {
  const tool = toolset.tools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool.run(input, { cwd, signal: new AbortController().signal });
};

describe("server-everything", () => {
  test("connects, declares its features and lists tools, prompts and resources", () => {
    const [state] = registry.snapshot();
    expect(lines.filter((l) => l.includes("failed"))).toEqual([]);
    expect(state!.status).toBe("connected");
    expect(state!.instructions).toBeString();
    const names = toolset.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__everything__get-sum"]));
    // Offered only to clients that declared roots and sampling in initialize.
    expect(names).toEqual(expect.arrayContaining(["mcp__everything__get-roots-list", "mcp__everything__trigger-sampling-request"]));
    for (const t of toolset.tools()) expect(t.inputSchema.type).toBe("object");
    expect(state!.prompts.map((p) => p.name)).toContain("simple-prompt");
    expect(state!.resources.length).toBeGreaterThan(0);
  });

  test("tools/call: text, numbers, images", async () => {
    expect(await run("mcp__everything__echo", { message: "hi" })).toEqual({ content: "Echo: hi" });
    expect(JSON.stringify(await run("mcp__everything__get-sum", { a: 2, b: 40 }))).toContain("42");
    const image = await run("mcp__everything__get-tiny-image");
    expect(Array.isArray(image.content) && image.content.some((b) => b.type === "image")).toBe(true);
  });

  test("its requests to us: roots/list answers the working directory, sampling goes to our handler", async () => {
    expect(JSON.stringify(await run("mcp__everything__get-roots-list"))).toContain(pathToFileURL(cwd).href);
    const sampled = await run("mcp__everything__trigger-sampling-request", { prompt: "say something", maxTokens: 10 });
    expect(JSON.stringify(sampled)).toContain("sampled reply");
    expect(samples).toHaveLength(1);
  });

  test("prompts/get and resources/read", async () => {
    const prompt = await registry.getPrompt("everything", "simple-prompt", {});
    expect(prompt.messages.length).toBeGreaterThan(0);
    const uri = registry.snapshot()[0]!.resources[0]!.uri;
    const read = await registry.readResource("everything", uri);
    expect(read.contents[0]?.uri).toBe(uri);
  });

  test("shutdown leaves its process dead", async () => {
    const pid = registry.snapshot()[0]!.pid!;
    expect(isAlive(pid)).toBe(true);
    await registry.shutdown();
    // Our own child, reaped by Bun: gone once shutdown resolves.
    expect(isAlive(pid)).toBe(false);
  });
});
