import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  callToolResultToOutput,
  maxOutputChars,
  normalizeInputSchema,
  promptMessagesToBlocks,
  resourceContentsToBlocks,
} from "../../../../lib/agent/mcp/content.ts";
import { BLOB_BASE64, LONG_TOOL_NAME, PNG_BASE64 } from "../../../../fixtures/servers/fixture-catalog.ts";
import { Peer } from "../../../../fixtures/servers/peer.ts";

const text = (t: string) => ({ type: "text", text: t });
/** 5 MiB + 4 characters of base64: over the API's 5 MiB base64 limit, though it decodes to only ~3.75 MiB. */
const OVERSIZED_BASE64 = "A".repeat(5 * 1024 * 1024 + 4);
const pngBlock = { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } };

describe("callToolResultToOutput: blocks", () => {
  test("text blocks only → one string joined with newlines", () => {
    expect(callToolResultToOutput({ content: [text("one"), text("two"), text("three")] })).toEqual({ content: "one\ntwo\nthree" });
  });

  test("isError: true → isError", () => {
    expect(callToolResultToOutput({ content: [text("boom")], isError: true })).toEqual({ content: "boom", isError: true });
    expect(callToolResultToOutput({ content: [text("ok")], isError: false })).toEqual({ content: "ok" });
  });

  test("image → Anthropic base64 image block; mixed content → an array", () => {
    const out = callToolResultToOutput({ content: [text("see:"), { type: "image", data: PNG_BASE64, mimeType: "image/png" }] });
    expect(out).toEqual({ content: [text("see:"), pngBlock] as any });
  });

  test.each(["image/jpeg", "image/gif", "image/webp"])("%s images pass through", (mime) => {
    const out = callToolResultToOutput({ content: [{ type: "image", data: "AAAA", mimeType: mime }] });
    expect(out.content).toEqual([{ type: "image", source: { type: "base64", media_type: mime, data: "AAAA" } }]);
  });

  test("images the API cannot take are described", () => {
    const out = callToolResultToOutput({
      content: [
        { type: "image", data: "AAAA", mimeType: "image/svg+xml" },
        { type: "image", data: "not base64!", mimeType: "image/png" },
        { type: "image", mimeType: "image/png" },
      ],
    });
    expect(out.content).toBe(
      "[image: image/svg+xml, 3 bytes, type not supported for display]\n[image: image/png, 7 bytes, invalid base64 data]\n[image: image/png, no data]",
    );
  });

  test("audio, resource_link and embedded resources are described or inlined", () => {
    const out = callToolResultToOutput({
      content: [
        { type: "audio", data: "AAAAAA==", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///r.txt", name: "r.txt", description: "a file" },
        { type: "resource_link", uri: "file:///s.txt", name: "s.txt" },
        { type: "resource", resource: { uri: "fixture://hello", mimeType: "text/plain", text: "hello from fixture" } },
        { type: "resource", resource: { uri: "fixture://blob", mimeType: "application/octet-stream", blob: BLOB_BASE64 } },
      ],
    });
    expect(out.content).toBe(
      [
        "[audio: audio/wav, 4 bytes]",
        "[resource link: r.txt <file:///r.txt>: a file]",
        "[resource link: s.txt <file:///s.txt>]",
        "hello from fixture",
        "[embedded resource fixture://blob: application/octet-stream, 16 bytes]",
      ].join("\n"),
    );
  });

  test("unknown and malformed blocks are described, not thrown", () => {
    const out = callToolResultToOutput({ content: [{ type: "video" }, 7, null, { type: "text" }] });
    expect(out.content).toBe(
      '[unsupported content block type "video"]\n[malformed content block: a number]\n[malformed content block: null]\n[malformed text block: no text]',
    );
  });
});

describe("callToolResultToOutput: structuredContent", () => {
  const structuredContent = { temperature: 22.5, conditions: "sunny" };

  test("with text content, the text stays", () => {
    expect(callToolResultToOutput({ content: [text("22.5 and sunny")], structuredContent })).toEqual({ content: "22.5 and sunny" });
  });

  test("with empty or missing content, the serialised structuredContent is used", () => {
    const expected = { content: JSON.stringify(structuredContent) };
    expect(callToolResultToOutput({ content: [], structuredContent })).toEqual(expected);
    expect(callToolResultToOutput({ structuredContent })).toEqual(expected);
    expect(callToolResultToOutput({ structuredContent, isError: true })).toEqual({ ...expected, isError: true });
  });

  test("empty content without structuredContent → a placeholder, not an empty result", () => {
    expect(callToolResultToOutput({ content: [] })).toEqual({ content: "(no content)" });
  });
});

describe("callToolResultToOutput: malformed results", () => {
  test.each([
    [null, "expected an object, got null"],
    ["text", "expected an object, got a string"],
    [[text("x")], "expected an object, got an array"],
    [{ content: "text" }, '"content" is a string, not an array'],
    [{ content: { type: "text" } }, '"content" is an object, not an array'],
    [{}, "it has neither content nor structuredContent"],
  ])("%j → isError", (result, why) => {
    expect(callToolResultToOutput(result)).toEqual({ content: `MCP tool returned a malformed result: ${why}`, isError: true });
  });
});

describe("callToolResultToOutput: truncation", () => {
  test("text over maxChars is cut with a note saying so and how to get less", () => {
    const out = callToolResultToOutput({ content: [text("a".repeat(50)), text("b".repeat(50))] }, { maxChars: 60 });
    const s = out.content as string;
    expect(s).toStartWith("a".repeat(50) + "\n" + "b".repeat(9) + "\n\n[Output truncated");
    expect(s).toContain("101 characters");
    expect(s).toContain("MAX_MCP_OUTPUT_TOKENS");
    expect(s).toContain("asking for less");
  });

  test("text at exactly maxChars is untouched", () => {
    expect(callToolResultToOutput({ content: [text("x".repeat(60))] }, { maxChars: 60 }).content).toBe("x".repeat(60));
  });

  test("the cut never splits a surrogate pair", () => {
    const s = callToolResultToOutput({ content: [text("ab😀cd")] }, { maxChars: 3 }).content as string;
    expect(s.split("\n")[0]).toBe("ab");
  });

  test("mixed content: images before the cut stay, blocks after it go", () => {
    const img = { type: "image", data: PNG_BASE64, mimeType: "image/png" };
    const out = callToolResultToOutput({ content: [img, text("y".repeat(20)), img] }, { maxChars: 10 });
    const blocks = out.content as any[];
    expect(blocks.map((b) => b.type)).toEqual(["image", "text"]);
    expect(blocks[1].text).toStartWith("y".repeat(10) + "\n\n[Output truncated");
  });

  test("serialised structuredContent is truncated too", () => {
    const out = callToolResultToOutput({ structuredContent: { big: "z".repeat(1000) } }, { maxChars: 100 });
    expect((out.content as string).length).toBeLessThan(1000);
  });

  test("default budget: MAX_MCP_OUTPUT_TOKENS × 4, default 25000 tokens", () => {
    expect(maxOutputChars({})).toBe(100_000);
    expect(maxOutputChars({ MAX_MCP_OUTPUT_TOKENS: "10" })).toBe(40);
    expect(maxOutputChars({ MAX_MCP_OUTPUT_TOKENS: "lots" })).toBe(100_000);
    const big = callToolResultToOutput({ content: [text("q".repeat(150_000))] }).content as string;
    expect(big).toStartWith("q".repeat(100_000) + "\n\n[Output truncated");
  });
});

describe("promptMessagesToBlocks", () => {
  test("text, image and embedded resource messages → blocks in order", () => {
    const blocks = promptMessagesToBlocks([
      { role: "user", content: text("Here is some context.") },
      { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "assistant", content: { type: "resource", resource: { uri: "fixture://hello", mimeType: "text/plain", text: "hello from fixture" } } },
    ]);
    expect(blocks).toEqual([text("Here is some context."), pngBlock, text("hello from fixture")] as any);
  });

  test("not an array → no blocks; malformed messages are described", () => {
    expect(promptMessagesToBlocks(undefined)).toEqual([]);
    expect(promptMessagesToBlocks([{ role: "user" }])).toEqual([text("[malformed content block: undefined]")] as any);
  });
});

describe("resourceContentsToBlocks", () => {
  test("text → text, image blob → image, other blob → description with uri, mime and size", () => {
    const blocks = resourceContentsToBlocks([
      { uri: "fixture://hello", mimeType: "text/plain", text: "hello from fixture" },
      { uri: "fixture://image", mimeType: "image/png", blob: PNG_BASE64 },
      { uri: "fixture://blob", mimeType: "application/octet-stream", blob: BLOB_BASE64 },
    ]);
    expect(blocks).toEqual([
      text("hello from fixture"),
      pngBlock,
      text("[binary resource fixture://blob, application/octet-stream, 16 bytes, not shown]"),
    ] as any);
  });

  test("empty, absent or malformed contents: no blocks, or a description", () => {
    expect(resourceContentsToBlocks([])).toEqual([]);
    expect(resourceContentsToBlocks("nope")).toEqual([]);
    expect(resourceContentsToBlocks([{ uri: "u", text: "" }])).toEqual([]);
    expect(resourceContentsToBlocks([5, { uri: "u" }])).toEqual([
      text("[malformed resource contents: a number]"),
      text("[resource u has neither text nor blob]"),
    ] as any);
  });

  test("an image blob over the API's base64 limit is described, not sent", () => {
    const [block] = resourceContentsToBlocks([{ uri: "big", mimeType: "image/png", blob: OVERSIZED_BASE64 }]);
    expect(block).toEqual(
      text(
        `[image: image/png, ${(OVERSIZED_BASE64.length / 4) * 3} bytes, too large to send: ${OVERSIZED_BASE64.length} characters of base64, the API takes at most 5242880]`,
      ) as any,
    );
  });
});

describe("images over the limit and empty text, on every path", () => {
  const bigImage = { type: "image", data: OVERSIZED_BASE64, mimeType: "image/png" };

  test("a tool result image whose base64 is over 5 MiB (though its bytes are under) is described", () => {
    const out = callToolResultToOutput({ content: [text("chart:"), bigImage] });
    expect(out.content).toStartWith("chart:\n[image: image/png, ");
    expect(out.content).toContain("too large to send");
  });

  test("empty text blocks are dropped from mixed results; a result of only empty text is (no content)", () => {
    const img = { type: "image", data: PNG_BASE64, mimeType: "image/png" };
    expect(callToolResultToOutput({ content: [text(""), img, text("")] })).toEqual({ content: [pngBlock] as any });
    expect(callToolResultToOutput({ content: [text(""), text(" \n")] })).toEqual({ content: "(no content)" });
  });

  test("prompt messages: empty text dropped, an oversized image described", () => {
    const blocks = promptMessagesToBlocks([
      { role: "user", content: text("") },
      { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
      { role: "user", content: bigImage },
    ]);
    expect(blocks.map((b) => b.type)).toEqual(["image", "text"]);
    expect((blocks[1] as any).text).toContain("too large to send");
    expect(promptMessagesToBlocks([{ role: "user", content: text("") }])).toEqual([]);
  });
});

describe("normalizeInputSchema", () => {
  test("missing → empty object schema", () => {
    expect(normalizeInputSchema(undefined)).toEqual({ type: "object", properties: {} });
    expect(normalizeInputSchema(null)).toEqual({ type: "object", properties: {} });
  });

  test("an object schema is kept, extra keywords included", () => {
    const s = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false };
    expect(normalizeInputSchema(s)).toEqual(s as any);
  });

  test("no top-level type → type object added", () => {
    expect(normalizeInputSchema({ properties: { a: { type: "number" } } })).toEqual({ type: "object", properties: { a: { type: "number" } } });
    expect(normalizeInputSchema({})).toEqual({ type: "object", properties: {} });
    expect(normalizeInputSchema({ type: ["object", "null"], properties: {} })).toEqual({ type: "object", properties: {} });
  });

  test.each([[{ type: "string" }], [{ type: "array", items: {} }], ["object"], [[{ type: "object" }]], [{ type: "object", properties: [] }]])(
    "%j cannot describe an object → null",
    (schema) => {
      expect(normalizeInputSchema(schema)).toBeNull();
    },
  );

  test("anyOf/oneOf → merged properties, required = intersection, combinator dropped", () => {
    for (const combinator of ["anyOf", "oneOf"]) {
      const schema = {
        description: "either",
        [combinator]: [
          { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, required: ["id", "name"] },
          { type: "object", properties: { id: { type: "integer" }, email: { type: "string" } }, required: ["id"] },
          { type: "null" },
        ],
      };
      expect(normalizeInputSchema(schema)).toEqual({
        type: "object",
        description: "either",
        properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string" } },
        required: ["id"],
      });
    }
  });

  test("allOf → merged properties, required = union (plus the top level's)", () => {
    const schema = {
      type: "object",
      properties: { base: { type: "boolean" } },
      required: ["base"],
      allOf: [
        { properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
      ],
    };
    expect(normalizeInputSchema(schema)).toEqual({
      type: "object",
      properties: { base: { type: "boolean" }, a: { type: "string" }, b: { type: "string" } },
      required: ["base", "a", "b"],
    });
  });

  test("combinators without an object branch, or allOf with a non-object branch → null", () => {
    expect(normalizeInputSchema({ anyOf: [{ type: "string" }, { type: "number" }] })).toBeNull();
    expect(normalizeInputSchema({ allOf: [{ type: "object" }, { type: "string" }] })).toBeNull();
    expect(normalizeInputSchema({ oneOf: "nope" })).toBeNull();
  });
});

describe("real results from the fixture server", () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = Peer.start(["--bad-schemas", "--weird-names"]);
    await peer.handshake();
  });
  afterAll(() => peer.killGroup());
  const call = async (name: string, args: Record<string, unknown> = {}) => (await peer.request("tools/call", { name, arguments: args })).result;

  test("tools/call results", async () => {
    expect(callToolResultToOutput(await call("multi"))).toEqual({ content: "one\ntwo\nthree" });
    expect(callToolResultToOutput(await call("fail"))).toEqual({ content: "fixture failure", isError: true });
    expect(callToolResultToOutput(await call("image"))).toEqual({ content: [pngBlock] as any });
    expect(callToolResultToOutput(await call("structured"))).toEqual({ content: '{"temperature":22.5,"conditions":"sunny"}' });
    const big = callToolResultToOutput(await call("big", { bytes: 200_000 })).content as string;
    expect(big).toStartWith("x".repeat(100_000) + "\n\n[Output truncated: the MCP tool returned 200000 characters");
  });

  test("prompts/get and resources/read results", async () => {
    const multi = (await peer.request("prompts/get", { name: "multi" })).result;
    expect(promptMessagesToBlocks(multi.messages)).toEqual([text("Here is some context."), pngBlock, text("hello from fixture")] as any);
    const image = (await peer.request("resources/read", { uri: "fixture://image" })).result;
    expect(resourceContentsToBlocks(image.contents)).toEqual([pngBlock] as any);
    const blob = (await peer.request("resources/read", { uri: "fixture://blob" })).result;
    expect(resourceContentsToBlocks(blob.contents)).toEqual([text("[binary resource fixture://blob, application/octet-stream, 16 bytes, not shown]")] as any);
  });

  test("tools/list schemas: every base tool normalises, only string_schema is left out", async () => {
    const tools: { name: string; inputSchema?: unknown }[] = (await peer.request("tools/list")).result.tools;
    const leftOut = tools.filter((t) => normalizeInputSchema(t.inputSchema) === null).map((t) => t.name);
    expect(leftOut).toEqual(["string_schema"]);
    const byName = new Map(tools.map((t) => [t.name, normalizeInputSchema(t.inputSchema)]));
    expect(byName.get("no_schema")).toEqual({ type: "object", properties: {} });
    expect(byName.get("anyof_schema")).toEqual({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string" } },
      required: ["id"],
    });
    expect(byName.get(LONG_TOOL_NAME)).toEqual({ type: "object", properties: {} });
  });
});
