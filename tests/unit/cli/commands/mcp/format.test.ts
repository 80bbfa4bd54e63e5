/**
 * The inspector's text rendering (lib/cli/commands/mcp/format.ts).
 */
import { describe, expect, test } from "bun:test";
import type { ServerSnapshot } from "../../../../../lib/mcp/registry/registry.ts";
import * as fmt from "../../../../../lib/cli/commands/mcp/format.ts";
import type { HttpServerConfig, StdioServerConfig } from "../../../../../lib/mcp/config/load.ts";

const state = (over: Partial<ServerSnapshot>): ServerSnapshot => ({
  name: "fx",
  status: "connected",
  config: { type: "stdio", name: "fx", command: "bun", args: ["server.ts", "a b"], env: { TOKEN: "secret" } },
  tools: [],
  prompts: [],
  resources: [],
  stderr: [],
  ...over,
});

describe("rendering", () => {
  test("env values are masked; arguments with spaces quoted", () => {
    const s = state({});
    expect((fmt.maskConfig(s.config) as StdioServerConfig).env).toEqual({ TOKEN: "***" });
    expect(fmt.commandLine(s.config)).toBe('bun server.ts "a b"');
    expect(JSON.stringify(fmt.detailsJson(s))).not.toContain("secret");
    expect(fmt.detailsText(s)).toContain("env:           TOKEN=***");
  });

  test("remote servers: header values masked, the URL as written, transport and URL in the list", () => {
    const config: HttpServerConfig = {
      type: "http",
      name: "remote",
      url: "https://mcp.example.com/mcp?k=s3cret",
      headers: { Authorization: "Bearer s3cret" },
      written: { url: "https://mcp.example.com/mcp?k=${KEY}", headers: { Authorization: "Bearer ${TOKEN}" } },
    };
    const s = state({ name: "remote", config, tools: [{ name: "a" }] });
    expect(fmt.maskConfig(config)).toEqual({ type: "http", name: "remote", url: "https://mcp.example.com/mcp?k=${KEY}", headers: { Authorization: "***" } });
    expect(JSON.stringify(fmt.detailsJson(s))).not.toContain("s3cret");
    expect(fmt.detailsText(s)).not.toContain("s3cret");
    expect(fmt.detailsText(s)).toContain("headers:       Authorization: ***");
    expect(fmt.listTable([s])).toBe("remote  connected  http https://mcp.example.com/mcp?k=${KEY}  1 tool, 0 prompts, 0 resources");
    expect(fmt.listJson([s])[0]).toMatchObject({ transport: "http", url: "https://mcp.example.com/mcp?k=${KEY}" });
  });

  test("the oauth block: secrets masked, client id and port shown", () => {
    const config: HttpServerConfig = {
      type: "http",
      name: "remote",
      url: "https://mcp.example.com/mcp",
      headers: {},
      oauth: { grantType: "client_credentials", clientId: "app", clientSecret: "s3cret", callbackPort: 8976, privateKey: "-----BEGIN s3cret" },
    };
    expect(fmt.maskConfig(config)).toMatchObject({
      oauth: { grantType: "client_credentials", clientId: "app", clientSecret: "***", callbackPort: 8976, privateKey: "***" },
    });
    expect(JSON.stringify(fmt.detailsJson(state({ name: "remote", config })))).not.toContain("s3cret");
  });

  test("list rows: counts, or the reason with the telling stderr lines", () => {
    const rows = fmt.listTable([
      state({ tools: [{ name: "a" }], prompts: [{ name: "p" }, { name: "q" }] }),
      state({ name: "database", status: "failed", error: "exited with code 1 before the handshake", stderr: ["starting", "no such table", ""] }),
      state({
        name: "node",
        status: "failed",
        error: "exited with code 1 before the handshake",
        stderr: ["Error: Cannot find module '/x/indx.js'", "  at load", "  at run", "}", "Node.js v20.20.2"],
      }),
    ]);
    expect(rows.split("\n")).toEqual([
      'fx        connected  stdio bun server.ts "a b"  1 tool, 2 prompts, 0 resources',
      'database  failed     stdio bun server.ts "a b"  exited with code 1 before the handshake (stderr: starting | no such table)',
      "node      failed     stdio bun server.ts \"a b\"  exited with code 1 before the handshake (stderr: Error: Cannot find module '/x/indx.js' | Node.js v20.20.2)",
    ]);
  });

  test("tools with their arguments; prompts with <required> [optional]", () => {
    const tools = fmt.toolsText([
      {
        name: "add",
        description: "Adds.\nMore.",
        inputSchema: { type: "object", properties: { a: { type: "number", description: "first" }, b: {} }, required: ["a"] },
      },
    ]);
    expect(tools).toBe("add  Adds.\n    a: number  first\n    b?: any");
    expect(fmt.promptsText([{ name: "greet", arguments: [{ name: "name", required: true }, { name: "style" }] }])).toBe("greet <name> [style]");
    expect(fmt.toolsText([])).toBe("No tools.");
  });

  test("content blocks as text, whatever the server sent", () => {
    expect(fmt.contentText({ type: "text", text: "hi" })).toBe("hi");
    expect(fmt.contentText({ type: "image", mimeType: "image/png", data: "AAAA" })).toBe("[image image/png, 3 bytes]");
    expect(fmt.contentText({ type: "resource_link", uri: "file:///a", name: "a" })).toBe("[resource link file:///a (a)]");
    expect(fmt.contentText({ type: "resource", resource: { uri: "x://y", text: "inner" } })).toBe("inner");
    expect(fmt.contentText(null)).toBe("[unknown content]");
    expect(fmt.callResultText({ content: [], structuredContent: { t: 1 } })).toBe('{\n  "t": 1\n}');
    expect(fmt.callResultText({ content: "not an array" })).toBe("");
    expect(fmt.promptResultText({ messages: [{ role: "user", content: { type: "text", text: "Hello" } }] })).toBe("user: Hello");
  });
});
