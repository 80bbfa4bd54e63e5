/**
 * The pure pieces of `agent mcp …`: its command line, tool arguments and text rendering.
 */
import { describe, expect, test } from "bun:test";
import { inspectorArgv, UsageError } from "../../../../../lib/cli/flags/args.ts";
import { parseInspectorArgs, parseToolArguments } from "../../../../../lib/cli/commands/mcp/args.ts";
import * as fmt from "../../../../../lib/cli/commands/mcp/format.ts";
import { schemaType } from "../../../../../lib/cli/commands/mcp/schema-type.ts";
import type { ServerSnapshot } from "../../../../../lib/mcp/registry/registry.ts";
import type { HttpServerConfig, StdioServerConfig } from "../../../../../lib/mcp/config/load.ts";

describe("command line", () => {
  test("commands, operands and flags", () => {
    expect(parseInspectorArgs(["call", "fx", "echo", '{"text":"a"}', "--json"])).toMatchObject({
      command: "call",
      operands: ["fx", "echo", '{"text":"a"}'],
      json: true,
    });
    expect(parseInspectorArgs(["prompt", "fx", "greet", "--", "--not-a-flag", "x"]).operands).toEqual(["fx", "greet", "--not-a-flag", "x"]);
    expect(parseInspectorArgs(["list", "--mcp-config", "a.json", "--mcp-config", "b.json", "--strict-mcp-config"])).toMatchObject({
      mcpConfig: ["a.json", "b.json"],
      strictMcpConfig: true,
    });
    expect(parseInspectorArgs(["--help"]).help).toBe(true);
  });

  test("usage errors name the problem", () => {
    expect(() => parseInspectorArgs([])).toThrow(UsageError);
    expect(() => parseInspectorArgs(["frob"])).toThrow('unknown command "frob"');
    expect(() => parseInspectorArgs(["get"])).toThrow("usage: agent mcp get <server>");
    expect(() => parseInspectorArgs(["read", "fx", "u", "extra"])).toThrow("usage: agent mcp read <server> <uri>");
    expect(() => parseInspectorArgs(["list", "--nope"])).toThrow(UsageError);
  });

  test("tool arguments must be a JSON object", () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments("{a:1}")).toStartWith("arguments are not valid JSON");
    expect(parseToolArguments("[1]")).toStartWith("arguments must be a JSON object");
    expect(parseToolArguments("null")).toStartWith("arguments must be a JSON object");
  });
});

describe("routing `agent [flags] mcp …` to the inspector", () => {
  test("the first positional `mcp`, whatever flags come first, which are passed on", () => {
    expect(inspectorArgv(["mcp", "list"])).toEqual(["list"]);
    expect(inspectorArgv(["--strict-mcp-config", "mcp", "list"])).toEqual(["--strict-mcp-config", "list"]);
    expect(inspectorArgv(["--mcp-config", "x.json", "mcp", "tools", "fx"])).toEqual(["--mcp-config", "x.json", "tools", "fx"]);
    expect(inspectorArgv(["--mcp-config=x.json", "--json", "mcp", "list"])).toEqual(["--mcp-config=x.json", "--json", "list"]);
    // The inspector refuses flags it does not know; routing does not judge them.
    expect(inspectorArgv(["--model", "m", "mcp", "list"])).toEqual(["--model", "m", "list"]);
  });

  test("`mcp` as a flag's value, a prompt, or after -p / -- is not the inspector", () => {
    expect(inspectorArgv(["--model", "mcp", "hello"])).toBeUndefined();
    expect(inspectorArgv(["--model", "mcp"])).toBeUndefined();
    expect(inspectorArgv(["-p", "mcp"])).toBeUndefined();
    expect(inspectorArgv(["mcp", "list", "--print"])).toBeUndefined();
    expect(inspectorArgv(["-pv", "mcp"])).toBeUndefined();
    expect(inspectorArgv(["--", "mcp", "list"])).toBeUndefined();
    expect(inspectorArgv(["tell", "me", "about", "mcp"])).toBeUndefined();
    expect(inspectorArgv([])).toBeUndefined();
  });
});

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

describe("schemaType", () => {
  test.each([
    [{ type: "string" }, "string"],
    [{ type: ["boolean", "string"] }, "boolean | string"],
    [{ type: "string", enum: ["a", "b"] }, '"a" | "b"'],
    [{ enum: [1, null] }, "1 | null"],
    [{ const: "fixed" }, '"fixed"'],
    [{ type: "array", items: { type: "string" } }, "string[]"],
    [{ type: "array" }, "any[]"],
    [{ type: "array", items: { anyOf: [{ type: "number" }, { type: "null" }] } }, "(number | null)[]"],
    [{ type: "array", items: { type: "array", items: { type: "integer" } } }, "integer[][]"],
    [{ anyOf: [{ type: "string" }, { type: "number" }, { type: "string" }] }, "string | number"],
    [{ oneOf: [{ $ref: "#/$defs/Address" }, { type: "null" }] }, "Address | null"],
    [{ $ref: "#/definitions/Point" }, "Point"],
    [{ anyOf: [{ type: "string" }, {}] }, "any"],
    [{ enum: ["a | b", "c"] }, '"a | b" | "c"'],
    [{}, "any"],
    [null, "any"],
    ["string", "any"],
  ])("%j → %s", (schema, expected) => {
    expect(schemaType(schema)).toBe(expected);
  });
});
