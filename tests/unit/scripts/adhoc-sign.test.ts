/**
 * scripts/release/adhoc-sign.ts on a small synthetic Mach-O executable: the signature it writes is
 * read back and every page hash recomputed by tests/support/macho.ts, and a changed byte is caught
 * in the page that holds it. (The release test checks the same on the real darwin builds.)
 */
import { describe, expect, test } from "bun:test";
import { adhocSign, hasCoveringAdhocSignature } from "../../../scripts/release/adhoc-sign.ts";
import { CPU_TYPE_ARM64, CS_ADHOC, checkCodeSignature } from "../../support/macho.ts";

const SIG_AT = 0x5010; // 16-byte aligned, not page aligned: the last code page is partial
const OLD_SIG = 64;

/** header + __TEXT + __LINKEDIT + LC_CODE_SIGNATURE, pseudo-random bytes, and a stale signature. */
function machO(): Uint8Array {
  const file = new Uint8Array(SIG_AT + OLD_SIG);
  for (let i = 0; i < file.length; i++) file[i] = (i * 2654435761) >>> 24;
  const v = new DataView(file.buffer);
  const u32 = (at: number, x: number) => v.setUint32(at, x, true);
  const u64 = (at: number, x: number) => v.setBigUint64(at, BigInt(x), true);
  const name = (at: number, s: string) =>
    file.set(
      new Uint8Array(16).fill(0).map((_, i) => s.charCodeAt(i) || 0),
      at,
    );
  const words = (at: number, xs: number[]) => {
    for (const [i, x] of xs.entries()) u32(at + i * 4, x);
  };
  words(0, [0xfeedfacf, CPU_TYPE_ARM64, 0, 2, 3, 72 + 72 + 16, 0, 0]);
  const segment = (at: number, seg: string, fileoff: number, filesize: number) => {
    u32(at, 0x19);
    u32(at + 4, 72);
    name(at + 8, seg);
    u64(at + 24, 0x100000000 + fileoff);
    u64(at + 32, 0x4000);
    u64(at + 40, fileoff);
    u64(at + 48, filesize);
    for (let i = 56; i < 72; i += 4) u32(at + i, 0);
  };
  segment(32, "__TEXT", 0, 0x4000);
  segment(104, "__LINKEDIT", 0x4000, SIG_AT + OLD_SIG - 0x4000);
  words(176, [0x1d, 16, SIG_AT, OLD_SIG]);
  file.fill(0, SIG_AT);
  new DataView(file.buffer).setUint32(SIG_AT, 0xfade0cc0);
  return file;
}

describe("ad-hoc signing", () => {
  test("the new signature covers every byte before it and every page hash recomputes", () => {
    const before = machO();
    expect(hasCoveringAdhocSignature(before)).toBe(false);
    const signed = adhocSign(before, "agent");
    const check = checkCodeSignature(signed);
    expect(check).toMatchObject({
      dataOffset: SIG_AT,
      identifier: "agent",
      hashType: "sha256",
      pageSize: 4096,
      codeLimit: SIG_AT,
      nCodeSlots: 6,
      badPages: [],
      badSpecialSlots: [],
      blobTypes: [0, 2],
      linkeditCoversSignature: true,
      endsAtSignature: true,
    });
    expect(check.flags & CS_ADHOC).toBe(CS_ADHOC);
    expect(hasCoveringAdhocSignature(signed)).toBe(true);
    // The code bytes are kept; only the load commands that size the signature change.
    expect(Buffer.from(signed.subarray(0x1000, SIG_AT)).equals(Buffer.from(before.subarray(0x1000, SIG_AT)))).toBe(true);
  });

  test("a changed byte fails the hash of the page holding it, the partial last page included", () => {
    const signed = adhocSign(machO(), "agent");
    signed[0x2345]! ^= 1;
    signed[SIG_AT - 1]! ^= 1;
    expect(checkCodeSignature(signed).badPages).toEqual([2, 5]);
  });

  test("a file that is not a 64-bit Mach-O is refused", () => {
    expect(() => adhocSign(new Uint8Array(64), "agent")).toThrow("not a 64-bit little-endian Mach-O file");
  });
});
