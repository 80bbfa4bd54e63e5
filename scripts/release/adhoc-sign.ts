/**
 * Ad-hoc code signing of a 64-bit Mach-O executable, in place of `codesign --sign -` (which only
 * runs on a Mac). Bun 1.4.5's darwin-x64 runtime keeps its own Developer ID signature after the
 * bundle is injected, so the hashes no longer match the file and macOS may kill it at launch.
 * Layouts from Apple's <mach-o/loader.h> and xnu's <kern/cs_blobs.h>: a SuperBlob holding a
 * CodeDirectory (v0x20400, SHA-256, 4 KiB pages) and an empty requirement set, as codesign writes.
 */
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CS_ADHOC = 0x2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
const HASH = 32;
const CD_HEADER = 88; // CodeDirectory through execSegFlags (version 0x20400)

interface Layout {
  sigCommand: number;
  dataOffset: number;
  linkedit: number;
  linkeditFileOff: number;
  textFileOff: bigint;
  textFileSize: bigint;
}

function layout(file: Uint8Array): Layout {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (v.getUint32(0, true) !== MH_MAGIC_64) throw new Error("not a 64-bit little-endian Mach-O file");
  const found: Partial<Layout> = {};
  let at = 32;
  for (let i = v.getUint32(16, true); i > 0; i--) {
    const cmd = v.getUint32(at, true);
    if (cmd === LC_CODE_SIGNATURE) [found.sigCommand, found.dataOffset] = [at, v.getUint32(at + 8, true)];
    if (cmd === LC_SEGMENT_64) {
      const name = new TextDecoder().decode(file.subarray(at + 8, at + 24)).replace(/\0+$/, "");
      if (name === "__LINKEDIT") [found.linkedit, found.linkeditFileOff] = [at, Number(v.getBigUint64(at + 40, true))];
      if (name === "__TEXT") [found.textFileOff, found.textFileSize] = [v.getBigUint64(at + 40, true), v.getBigUint64(at + 48, true)];
    }
    at += v.getUint32(at + 4, true);
  }
  if (found.sigCommand === undefined || found.linkedit === undefined || found.textFileOff === undefined) {
    throw new Error("Mach-O file lacks LC_CODE_SIGNATURE, __LINKEDIT or __TEXT: not a linked executable bun made");
  }
  if (found.dataOffset! % 16 !== 0) throw new Error(`the signature offset ${found.dataOffset} is not 16-byte aligned`);
  return found as Layout;
}

/**
 * Returns a copy of `file` whose signature (kept where LC_CODE_SIGNATURE puts it, covering every
 * byte before it) is a fresh ad-hoc one named `identifier`. Updates LC_CODE_SIGNATURE's size and
 * __LINKEDIT's extent to the new signature. @throws Error when `file` is not such an executable.
 */
export function adhocSign(file: Uint8Array, identifier: string): Uint8Array {
  const l = layout(file);
  const codeLimit = l.dataOffset;
  const nCodeSlots = Math.ceil(codeLimit / PAGE);
  const ident = new TextEncoder().encode(`${identifier}\0`);
  const requirements = new Uint8Array([0xfa, 0xde, 0x0c, 0x01, 0, 0, 0, 12, 0, 0, 0, 0]); // empty requirement set
  const nSpecialSlots = 2; // -1 Info.plist (none, zero hash), -2 requirements
  const hashOffset = CD_HEADER + ident.length + nSpecialSlots * HASH;
  const cdLength = hashOffset + nCodeSlots * HASH;
  const superHeader = 12 + 2 * 8;
  const sigLength = superHeader + cdLength + requirements.length;
  const dataSize = Math.ceil(sigLength / 16) * 16;

  const out = new Uint8Array(codeLimit + dataSize);
  out.set(file.subarray(0, codeLimit));
  const le = new DataView(out.buffer);
  le.setUint32(l.sigCommand + 12, dataSize, true);
  const linkeditSize = BigInt(codeLimit + dataSize - l.linkeditFileOff);
  le.setBigUint64(l.linkedit + 32, (linkeditSize + 0x3fffn) & ~0x3fffn, true); // vmsize, 16 KiB pages fit both CPUs
  le.setBigUint64(l.linkedit + 48, linkeditSize, true); // filesize

  const sig = new DataView(out.buffer, codeLimit, dataSize);
  sig.setUint32(0, 0xfade0cc0);
  sig.setUint32(4, sigLength);
  sig.setUint32(8, 2);
  sig.setUint32(12, 0); // CSSLOT_CODEDIRECTORY
  sig.setUint32(16, superHeader);
  sig.setUint32(20, 2); // CSSLOT_REQUIREMENTS
  sig.setUint32(24, superHeader + cdLength);
  const cd = superHeader;
  const fields: [number, number][] = [
    [0, 0xfade0c02],
    [4, cdLength],
    [8, 0x20400],
    [12, CS_ADHOC],
    [16, hashOffset],
    [20, CD_HEADER],
    [24, nSpecialSlots],
    [28, nCodeSlots],
    [32, codeLimit],
  ];
  for (const [at, value] of fields) sig.setUint32(cd + at, value);
  sig.setUint8(cd + 36, HASH);
  sig.setUint8(cd + 37, 2); // CS_HASHTYPE_SHA256
  sig.setUint8(cd + 39, PAGE_BITS);
  sig.setBigUint64(cd + 64, l.textFileOff);
  sig.setBigUint64(cd + 72, l.textFileSize);
  sig.setBigUint64(cd + 80, BigInt(CS_EXECSEG_MAIN_BINARY));
  out.set(ident, codeLimit + cd + CD_HEADER);
  out.set(requirements, codeLimit + superHeader + cdLength);
  const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();
  out.set(sha256(requirements), codeLimit + cd + hashOffset - 2 * HASH);
  // Page hashes last: page 0 holds the load commands changed above.
  for (let i = 0; i < nCodeSlots; i++) {
    out.set(sha256(out.subarray(i * PAGE, Math.min((i + 1) * PAGE, codeLimit))), codeLimit + cd + hashOffset + i * HASH);
  }
  return out;
}

/**
 * True when `file`'s signature is Bun's ad-hoc one over everything before it; false for another
 * identity's signature (Bun's darwin-x64 runtime keeps Oven's, which no longer matches) or one
 * stopping short of the signature. Page hashes are recomputed by the release test, not here.
 */
export function hasCoveringAdhocSignature(file: Uint8Array): boolean {
  const l = layout(file);
  const be = new DataView(file.buffer, file.byteOffset + l.dataOffset);
  if (be.getUint32(0) !== 0xfade0cc0) return false;
  for (let i = 0; i < be.getUint32(8); i++) {
    if (be.getUint32(12 + i * 8) !== 0) continue;
    const cd = be.getUint32(16 + i * 8);
    return (be.getUint32(cd + 12) & CS_ADHOC) !== 0 && be.getUint32(cd + 32) === l.dataOffset;
  }
  return false;
}
