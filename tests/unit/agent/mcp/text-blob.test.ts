import { describe, expect, test } from "bun:test";
import { isTextMimeType, textOfBlob } from "../../../../lib/agent/mcp/text-blob.ts";
import { resourceContentsToBlocks } from "../../../../lib/agent/mcp/content.ts";

const b64 = (bytes: string | Uint8Array) => Buffer.from(bytes).toString("base64");

describe("isTextMimeType", () => {
  test.each([
    "text/plain",
    "text/markdown; charset=utf-8",
    "TEXT/CSV",
    "application/json",
    "application/xml",
    "application/yaml",
    "application/x-yaml",
    "application/ld+json",
    "image/svg+xml",
    "application/vnd.api+json",
  ])("%s is text", (mime) => expect(isTextMimeType(mime)).toBe(true));
  test.each(["application/octet-stream", "image/png", "application/pdf", "application/jsonx", "unknown type"])("%s is not", (mime) =>
    expect(isTextMimeType(mime)).toBe(false),
  );
});

describe("textOfBlob", () => {
  test("a text mimeType with valid UTF-8 → the text, BOM dropped", () => {
    expect(textOfBlob("text/plain", b64("héllo ✓"))).toBe("héllo ✓");
    expect(textOfBlob("application/json", b64('\uFEFF{"a":1}'))).toBe('{"a":1}');
  });
  test("invalid UTF-8 or a binary mimeType → undefined", () => {
    expect(textOfBlob("text/plain", b64(new Uint8Array([0x68, 0xff, 0xfe, 0x69])))).toBeUndefined();
    expect(textOfBlob("application/octet-stream", b64("plain words"))).toBeUndefined();
  });
  test("resources/read: a text blob is text, a binary one still described", () => {
    expect(
      resourceContentsToBlocks([
        { uri: "a://t", mimeType: "text/yaml", blob: b64("k: v\n") },
        { uri: "a://b", mimeType: "text/plain", blob: b64(new Uint8Array([0xc3, 0x28])) },
      ]),
    ).toEqual([
      { type: "text", text: "k: v\n" },
      { type: "text", text: "[binary resource a://b, text/plain, 2 bytes, not shown]" },
    ]);
  });
});
