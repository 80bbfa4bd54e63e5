/**
 * The Messages API's image rules, shared by every path that sends an image.
 */
import { describe, expect, test } from "bun:test";
import { base64Bytes, imageBlock, imageMediaType, MAX_IMAGE_BASE64_CHARS, MAX_IMAGE_BYTES } from "../../../lib/files/image.ts";

describe("imageBlock", () => {
  test("the limit is on the base64 length: 5 MiB of characters pass, one more group does not", () => {
    expect(MAX_IMAGE_BASE64_CHARS).toBe(5_242_880);
    const atLimit = Buffer.alloc(MAX_IMAGE_BYTES).toString("base64");
    expect(atLimit.length).toBe(MAX_IMAGE_BASE64_CHARS);
    expect(imageBlock("image/png", atLimit).type).toBe("image");
    const over = Buffer.alloc(MAX_IMAGE_BYTES + 1).toString("base64");
    expect(imageBlock("image/png", over)).toEqual({
      type: "text",
      text: `[image: image/png, ${MAX_IMAGE_BYTES + 1} bytes, too large to send: ${over.length} characters of base64, the API takes at most 5242880]`,
    });
  });

  test("only PNG, JPEG, GIF and WebP; invalid base64 is described; whitespace is removed", () => {
    expect(imageBlock("image/svg+xml", "AAAA")).toEqual({ type: "text", text: "[image: image/svg+xml, 3 bytes, type not supported for display]" });
    expect(imageBlock("image/png", "not base64!")).toEqual({ type: "text", text: "[image: image/png, 7 bytes, invalid base64 data]" });
    expect(imageBlock("image/webp", "AA\nAA")).toEqual({ type: "image", source: { type: "base64", media_type: "image/webp", data: "AAAA" } });
  });

  test("base64Bytes counts padding", () => {
    expect([base64Bytes(""), base64Bytes("AA=="), base64Bytes("AAA="), base64Bytes("AAAA")]).toEqual([0, 1, 2, 3]);
  });
});

test("imageMediaType reads the magic bytes, not the name", () => {
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
  expect(imageMediaType(png)).toBe("image/png");
  expect(imageMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
  expect(imageMediaType(Buffer.from("GIF89a"))).toBe("image/gif");
  expect(imageMediaType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
  expect(imageMediaType(Buffer.from("RIFF\0\0\0\0WAVEfmt "))).toBeUndefined();
  expect(imageMediaType(Buffer.from("not really a png"))).toBeUndefined();
});
