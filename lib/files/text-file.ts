/**
 * Bytes ↔ text for files the tools read and rewrite: BOM-marked UTF-8/UTF-16, plain UTF-8,
 * a Latin-1 fallback for files that are not valid UTF-8, and binary detection.
 * Every decoding here is chosen so that encodeText(decodeText(b)) gives back b exactly,
 * which is what lets Edit change a span without touching the bytes around it.
 */

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "latin1";

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  /** True when the file starts with a byte order mark (kept out of `text`, restored by encodeText). */
  bom: boolean;
}

const BOMS: { encoding: TextEncodingName; bytes: number[] }[] = [
  { encoding: "utf-8", bytes: [0xef, 0xbb, 0xbf] },
  { encoding: "utf-16le", bytes: [0xff, 0xfe] },
  { encoding: "utf-16be", bytes: [0xfe, 0xff] },
];

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** How much of a file binary sniffing looks at, in bytes (the same window git and ripgrep use). */
export const SNIFF_BYTES = 8192;

/** True when the first SNIFF_BYTES bytes hold a NUL byte and no UTF-16 BOM explains it. */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bomOf(bytes)?.encoding.startsWith("utf-16")) return false;
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * Decodes a file's bytes. Order: a BOM decides; else NUL bytes mean binary (returns null);
 * else strict UTF-8; else Latin-1 (ISO-8859-1), which maps every byte to one code point.
 */
export function decodeText(bytes: Uint8Array): DecodedText | null {
  const bom = bomOf(bytes);
  if (bom) {
    const body = bytes.subarray(bom.bytes.length);
    if (bom.encoding === "utf-8") {
      const text = strictUtf8Or(body);
      // A UTF-8 BOM over invalid UTF-8: fall through to Latin-1 on the whole file, BOM bytes included.
      if (text !== undefined) return { text, encoding: "utf-8", bom: true };
      return { text: latin1(bytes), encoding: "latin1", bom: false };
    }
    return { text: decodeUtf16(body, bom.encoding === "utf-16be"), encoding: bom.encoding, bom: true };
  }
  if (looksBinary(bytes)) return null;
  const utf8 = strictUtf8Or(bytes);
  if (utf8 !== undefined) return { text: utf8, encoding: "utf-8", bom: false };
  return { text: latin1(bytes), encoding: "latin1", bom: false };
}

/**
 * Decodes the first bytes of a longer file, as decodeText would the whole: a character the cut
 * split in two (a UTF-8 sequence, a UTF-16 code unit or surrogate pair) is dropped, rather than
 * turning valid UTF-8 into Latin-1 or ending the text with a broken character.
 */
export function decodeTextPrefix(bytes: Uint8Array): DecodedText | null {
  const bom = bomOf(bytes);
  if (bom?.encoding.startsWith("utf-16")) {
    const body = bytes.length - bom.bytes.length;
    const decoded = decodeText(bytes.subarray(0, bytes.length - (body % 2)))!;
    const last = decoded.text.charCodeAt(decoded.text.length - 1);
    return last >= 0xd800 && last <= 0xdbff ? { ...decoded, text: decoded.text.slice(0, -1) } : decoded;
  }
  const whole = decodeText(bytes.subarray(0, completeUtf8End(bytes)));
  // Not UTF-8 after all: Latin-1 has no multi-byte characters to split, so keep every byte.
  return whole?.encoding === "utf-8" ? whole : decodeText(bytes);
}

/** The length of `bytes` without a UTF-8 sequence cut short at the end. */
function completeUtf8End(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 4); i--) {
    const b = bytes[i]!;
    if ((b & 0xc0) === 0x80) continue;
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + length > bytes.length ? i : bytes.length;
  }
  return bytes.length;
}

/** Encodes `text` back to bytes in `encoding`, with the BOM first when `bom`. */
export function encodeText(text: string, encoding: TextEncodingName, bom: boolean): Uint8Array {
  let body: Buffer;
  if (encoding === "utf-8") body = Buffer.from(text, "utf8");
  else if (encoding === "latin1") body = Buffer.from(text, "latin1");
  else {
    body = Buffer.from(text, "utf16le");
    if (encoding === "utf-16be") body.swap16();
  }
  if (!bom) return body;
  const mark = BOMS.find((b) => b.encoding === encoding)!.bytes;
  return Buffer.concat([Buffer.from(mark), body]);
}

/** True when every character of `text` exists in `encoding` (only Latin-1 has gaps: code points > U+00FF). */
export function canEncode(text: string, encoding: TextEncodingName): boolean {
  return encoding !== "latin1" || !/[^\u0000-\u00ff]/.test(text);
}

/** A human label for notes shown to the model, e.g. "UTF-16LE with BOM". */
export function encodingLabel(decoded: Pick<DecodedText, "encoding" | "bom">): string {
  const name = decoded.encoding === "latin1" ? "Latin-1 (ISO-8859-1)" : decoded.encoding.toUpperCase();
  return decoded.bom ? `${name} with BOM` : name;
}

function bomOf(bytes: Uint8Array) {
  return BOMS.find((b) => b.bytes.length <= bytes.length && b.bytes.every((v, i) => bytes[i] === v));
}

function strictUtf8Or(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

// Buffer's utf16le keeps unpaired surrogates as-is (TextDecoder would replace them), so it round-trips.
function decodeUtf16(bytes: Uint8Array, bigEndian: boolean): string {
  const copy = Buffer.from(bytes);
  if (bigEndian) copy.subarray(0, copy.length - (copy.length % 2)).swap16();
  return copy.toString("utf16le");
}
