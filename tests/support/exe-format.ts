/**
 * What an executable file is, read from its header: ELF (System V gABI: e_ident, e_machine, the
 * PT_INTERP program header) or 64-bit Mach-O (<mach-o/loader.h>, via macho.ts). For the release
 * test, which must not trust a file's name for its platform.
 */
import { CPU_TYPE_ARM64, CPU_TYPE_X86_64, readMachO } from "./macho.ts";

const EM_X86_64 = 62;
const EM_AARCH64 = 183;
const PT_INTERP = 3;
const MH_EXECUTE = 2;

export interface ExeFormat {
  /** "ELF x86-64", "ELF aarch64", "Mach-O x86_64", "Mach-O arm64", or a description of what else it is. */
  kind: string;
  /** ELF only: the program interpreter (dynamic loader) it asks for. */
  interpreter?: string;
  /** Mach-O only: MH_EXECUTE. */
  executable?: boolean;
}

/** Identifies `file`. Never throws: an unknown file is described in `kind`. */
export function exeFormat(file: Uint8Array): ExeFormat {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  if (file.byteLength >= 64 && v.getUint32(0) === 0x7f454c46) {
    if (file[4] !== 2 || file[5] !== 1) return { kind: `ELF class ${file[4]} data ${file[5]} (not 64-bit little-endian)` };
    const machine = v.getUint16(18, true);
    const kind = machine === EM_X86_64 ? "ELF x86-64" : machine === EM_AARCH64 ? "ELF aarch64" : `ELF machine ${machine}`;
    return { kind, interpreter: interpreter(file, v) };
  }
  try {
    const h = readMachO(file);
    const cpu = h.cpuType === CPU_TYPE_X86_64 ? "x86_64" : h.cpuType === CPU_TYPE_ARM64 ? "arm64" : `cpu 0x${h.cpuType.toString(16)}`;
    return { kind: `Mach-O ${cpu}`, executable: h.fileType === MH_EXECUTE };
  } catch {
    return { kind: `unknown (first bytes ${Buffer.from(file.subarray(0, 4)).toString("hex")})` };
  }
}

function interpreter(file: Uint8Array, v: DataView): string | undefined {
  const phoff = Number(v.getBigUint64(32, true));
  const size = v.getUint16(54, true);
  for (let i = 0; i < v.getUint16(56, true); i++) {
    const at = phoff + i * size;
    if (v.getUint32(at, true) !== PT_INTERP) continue;
    const offset = Number(v.getBigUint64(at + 8, true));
    const length = Number(v.getBigUint64(at + 32, true));
    return new TextDecoder().decode(file.subarray(offset, offset + length)).replace(/\0+$/, "");
  }
  return undefined;
}
