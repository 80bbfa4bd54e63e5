/**
 * Encoding detection and byte-exact round trips for the files tools read and rewrite.
 */
import { describe, expect, test } from "bun:test";
import { canEncode, decodeText, decodeTextPrefix, encodeText, looksBinary } from "../../../lib/files/text-file.ts";

const roundTrip = (bytes: Uint8Array) => {
  const decoded = decodeText(bytes)!;
  return Buffer.from(encodeText(decoded.text, decoded.encoding, decoded.bom));
};

describe("decodeText", () => {
  test("plain UTF-8", () => {
    expect(decodeText(Buffer.from("héllo “x”\n"))).toEqual({ text: "héllo “x”\n", encoding: "utf-8", bom: false });
  });

  test("UTF-8 with BOM keeps the BOM out of the text", () => {
    expect(decodeText(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ text: "a", encoding: "utf-8", bom: true });
  });

  test("invalid UTF-8 falls back to Latin-1, byte for byte", () => {
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toEqual({ text: "café", encoding: "latin1", bom: false });
  });

  test("UTF-16 with a BOM is text, in both byte orders", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hi é\n", "utf16le")]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("hi é\n", "utf16le").swap16()]);
    expect(decodeText(le)).toEqual({ text: "hi é\n", encoding: "utf-16le", bom: true });
    expect(decodeText(be)).toEqual({ text: "hi é\n", encoding: "utf-16be", bom: true });
    expect(looksBinary(le)).toBe(false);
  });

  test("NUL bytes without a UTF-16 BOM mean binary", () => {
    expect(decodeText(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]))).toBeNull();
  });

  test("every decoding round-trips to the same bytes", () => {
    const samples = [
      Buffer.from("plain\r\nmixed\n“quotes”\u00a0🎉"),
      Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a]),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x80, 0xff, 0x0a]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("x\r\ny 🎉", "utf16le")]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("x\r\ny 🎉", "utf16le").swap16()]),
    ];
    for (const bytes of samples) expect(roundTrip(bytes).equals(bytes)).toBe(true);
  });
});

test("canEncode: only Latin-1 has characters it cannot store", () => {
  expect(canEncode("brûlée", "latin1")).toBe(true);
  expect(canEncode("€", "latin1")).toBe(false);
  expect(canEncode("€🎉", "utf-16le")).toBe(true);
});

describe("decodeTextPrefix: the first bytes of a longer file", () => {
  test("a UTF-8 character cut in two is dropped, the rest stays UTF-8", () => {
    const bytes = Buffer.from("aé€😀");
    for (const [cut, text] of [
      [2, "a"],
      [3, "aé"],
      [4, "aé"],
      [5, "aé"],
      [7, "aé€"],
      [9, "aé€"],
      [10, "aé€😀"],
    ] as const) {
      expect(decodeTextPrefix(bytes.subarray(0, cut))).toEqual({ text, encoding: "utf-8", bom: false });
    }
  });

  test("Latin-1 keeps every byte; binary is still null", () => {
    expect(decodeTextPrefix(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0xc3]))).toEqual({ text: "caféÃ", encoding: "latin1", bom: false });
    expect(decodeTextPrefix(Buffer.from([0x41, 0x00, 0xe2, 0x82]))).toBeNull();
  });

  test("UTF-16: an odd byte and half a surrogate pair are dropped", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("x😀", "utf16le")]);
    expect(decodeTextPrefix(le.subarray(0, 5))).toEqual({ text: "x", encoding: "utf-16le", bom: true });
    expect(decodeTextPrefix(le.subarray(0, 6))).toEqual({ text: "x", encoding: "utf-16le", bom: true });
    expect(decodeTextPrefix(le)).toEqual({ text: "x😀", encoding: "utf-16le", bom: true });
  });
});
