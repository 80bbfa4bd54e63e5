/**
 * A small reader of 64-bit Mach-O files and their code signature, to check a darwin build
 * without a Mac: the header, LC_CODE_SIGNATURE, the embedded-signature SuperBlob, and the
 * CodeDirectory, whose page hashes are recomputed from the file. Layouts from Apple's
 * <mach-o/loader.h> and the open-source xnu <kern/cs_blobs.h> (Mach-O is little-endian on both
 * targets; the signature blobs are big-endian).
 */
import { createHash } from "node:crypto";

export const CPU_TYPE_X86_64 = 0x01000007;
export const CPU_TYPE_ARM64 = 0x0100000c;
const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
/** CS_ADHOC: signed with no identity (no certificate), as `codesign -s -` and ld do. */
export const CS_ADHOC = 0x2;
const HASH_TYPES: Record<number, { algorithm: string; size: number }> = { 1: { algorithm: "sha1", size: 20 }, 2: { algorithm: "sha256", size: 32 } };

export interface MachOHeader {
  cpuType: number;
  fileType: number;
  loadCommands: { cmd: number; offset: number; size: number }[];
}

/** The 64-bit Mach-O header and load commands. @throws Error when `file` is not a 64-bit LE Mach-O. */
export function readMachO(file: Uint8Array): MachOHeader {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.byteLength < 32 || v.getUint32(0, true) !== MH_MAGIC_64) throw new Error("not a 64-bit little-endian Mach-O file");
  const ncmds = v.getUint32(16, true);
  const loadCommands: MachOHeader["loadCommands"] = [];
  let at = 32;
  for (let i = 0; i < ncmds; i++) {
    const cmd = v.getUint32(at, true);
    const size = v.getUint32(at + 4, true);
    if (size < 8 || at + size > file.byteLength) throw new Error(`load command ${i} runs past the file`);
    loadCommands.push({ cmd, offset: at, size });
    at += size;
  }
  return { cpuType: v.getInt32(4, true), fileType: v.getUint32(12, true), loadCommands };
}

export interface SignatureCheck {
  /** Where the signature sits: LC_CODE_SIGNATURE's dataoff and datasize. */
  dataOffset: number;
  dataSize: number;
  /** Blob types in the SuperBlob index (0 CodeDirectory, 2 requirements, 0x10000 CMS signature…). */
  blobTypes: number[];
  identifier: string;
  flags: number;
  version: number;
  hashType: string;
  pageSize: number;
  codeLimit: number;
  nCodeSlots: number;
  /** Code slots whose stored hash differs from the recomputed one (indexes). */
  badPages: number[];
  /** Special slots (negative, e.g. -2 requirements) whose blob hash differs from the stored one. */
  badSpecialSlots: number[];
  /** True when __LINKEDIT ends exactly where the signature ends (codesign's layout). */
  linkeditCoversSignature: boolean;
  /** True when the file ends with the signature (`codesign --strict` rejects a stale tail). */
  endsAtSignature: boolean;
}

/**
 * Parses and recomputes the embedded code signature. Everything found wrong is reported in the
 * result's fields rather than thrown. @throws Error only when there is no signature to read.
 */
export function checkCodeSignature(file: Uint8Array): SignatureCheck {
  const header = readMachO(file);
  const le = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const sig = header.loadCommands.find((c) => c.cmd === LC_CODE_SIGNATURE);
  if (!sig) throw new Error("no LC_CODE_SIGNATURE load command");
  const dataOffset = le.getUint32(sig.offset + 8, true);
  const dataSize = le.getUint32(sig.offset + 12, true);
  if (dataOffset + dataSize > file.byteLength) throw new Error(`signature (${dataOffset}+${dataSize}) runs past the file (${file.byteLength})`);
  const be = new DataView(file.buffer, file.byteOffset + dataOffset, dataSize);
  if (be.getUint32(0) !== CSMAGIC_EMBEDDED_SIGNATURE)
    throw new Error(`signature magic is 0x${be.getUint32(0).toString(16)}, not an embedded-signature SuperBlob`);
  const count = be.getUint32(8);
  const index = Array.from({ length: count }, (_, i) => ({ type: be.getUint32(12 + i * 8), offset: be.getUint32(16 + i * 8) }));
  const cdEntry = index.find((e) => e.type === CSSLOT_CODEDIRECTORY);
  if (!cdEntry) throw new Error("the SuperBlob holds no CodeDirectory");
  const cd = cdEntry.offset;
  if (be.getUint32(cd) !== CSMAGIC_CODEDIRECTORY) throw new Error("the CodeDirectory slot does not hold a CodeDirectory");
  const version = be.getUint32(cd + 8);
  const flags = be.getUint32(cd + 12);
  const hashOffset = be.getUint32(cd + 16);
  const identOffset = be.getUint32(cd + 20);
  const nSpecialSlots = be.getUint32(cd + 24);
  const nCodeSlots = be.getUint32(cd + 28);
  let codeLimit = be.getUint32(cd + 32);
  const hashSize = be.getUint8(cd + 36);
  const hash = HASH_TYPES[be.getUint8(cd + 37)];
  const pageSize = 2 ** be.getUint8(cd + 39);
  // Version 0x20300 added codeLimit64 (at 56) for files over 4 GiB; 0 means the 32-bit field holds.
  if (version >= 0x20300 && be.getBigUint64(cd + 56) !== 0n) codeLimit = Number(be.getBigUint64(cd + 56));
  if (!hash || hash.size !== hashSize) throw new Error(`unknown hash type ${be.getUint8(cd + 37)} (size ${hashSize})`);
  const digest = (bytes: Uint8Array) => createHash(hash.algorithm).update(bytes).digest();
  const stored = (slot: number) => Buffer.from(file.buffer, file.byteOffset + dataOffset + cd + hashOffset + slot * hashSize, hashSize);
  const badPages: number[] = [];
  for (let i = 0; i < nCodeSlots; i++) {
    const page = file.subarray(i * pageSize, Math.min((i + 1) * pageSize, codeLimit));
    if (!digest(page).equals(stored(i))) badPages.push(i);
  }
  const badSpecialSlots: number[] = [];
  for (const e of index.filter((x) => x.type !== CSSLOT_CODEDIRECTORY && x.type < 0x1000)) {
    if (e.type > nSpecialSlots) {
      badSpecialSlots.push(-e.type);
      continue;
    }
    const blob = new Uint8Array(file.buffer, file.byteOffset + dataOffset + e.offset, be.getUint32(e.offset + 4));
    if (!digest(blob).equals(stored(-e.type))) badSpecialSlots.push(-e.type);
  }
  const identBytes = new Uint8Array(file.buffer, file.byteOffset + dataOffset + cd + identOffset, dataSize - cd - identOffset);
  const identifier = new TextDecoder().decode(identBytes.subarray(0, identBytes.indexOf(0)));
  return {
    dataOffset,
    dataSize,
    blobTypes: index.map((e) => e.type),
    identifier,
    flags,
    version,
    hashType: hash.algorithm,
    pageSize,
    codeLimit,
    nCodeSlots,
    badPages,
    badSpecialSlots,
    linkeditCoversSignature: linkeditEnd(file, header) === dataOffset + dataSize,
    endsAtSignature: file.byteLength === dataOffset + dataSize,
  };
}

function linkeditEnd(file: Uint8Array, header: MachOHeader): number | undefined {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  for (const c of header.loadCommands.filter((x) => x.cmd === LC_SEGMENT_64)) {
    const name = new TextDecoder().decode(file.subarray(c.offset + 8, c.offset + 24)).replace(/\0+$/, "");
    if (name === "__LINKEDIT") return Number(v.getBigUint64(c.offset + 40, true) + v.getBigUint64(c.offset + 48, true));
  }
  return undefined;
}
