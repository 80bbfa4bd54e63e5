/**
 * Remembered era verdicts (MCP 2026-07-28, basic/versioning §Backward Compatibility: "MAY persist
 * across restarts of the same server configuration, re-probing if the cached assumption later
 * fails"), in `mcp-protocol-eras.json` in the config folder. Keyed by a fingerprint of a stdio
 * server's command, args, env and cwd, or by an HTTP server's URL origin; never by its name. Read
 * only when discovery first is opted into.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ServerConfig } from "../config/load.ts";
import type { Era } from "../session/negotiate.ts";

export const VERDICTS_FILE = "mcp-protocol-eras.json";

export interface Verdict {
  era: Era;
  protocolVersion: string;
  /** When it was found (ISO 8601). */
  at: string;
}

interface VerdictFile {
  verdicts: Record<string, Verdict>;
}

/** The key for `config`, or undefined for a server that lives in the host program. */
export function verdictKey(config: ServerConfig, cwd: string): string | undefined {
  if (config.type === "stdio") {
    const print = JSON.stringify([config.command, config.args, Object.entries(config.env).sort(), config.cwd ?? cwd]);
    return `stdio:${createHash("sha256").update(print).digest("hex").slice(0, 32)}`;
  }
  if (config.type === "http" || config.type === "sse") {
    try {
      return `http:${new URL(config.url).origin}`;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The remembered verdict for `key` in `dir`, or undefined (none, or an unreadable file). */
export function readVerdict(dir: string, key: string): Verdict | undefined {
  const verdict = readFile(join(dir, VERDICTS_FILE)).verdicts[key];
  return verdict && (verdict.era === "legacy" || verdict.era === "modern") && typeof verdict.protocolVersion === "string" ? verdict : undefined;
}

/** Remembers `verdict` for `key`; a failure to write only costs the next run a probe. */
export function rememberVerdict(dir: string, key: string, verdict: Verdict, write: (path: string, text: string) => void = writeAtomically): void {
  const path = join(dir, VERDICTS_FILE);
  const file = readFile(path);
  const old = file.verdicts[key];
  if (old && old.era === verdict.era && old.protocolVersion === verdict.protocolVersion) return;
  file.verdicts[key] = verdict;
  try {
    write(path, `${JSON.stringify(file, null, 2)}\n`);
  } catch {
    // Best effort: a read-only config folder means probing again, nothing worse.
  }
}

function readFile(path: string): VerdictFile {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<VerdictFile>;
    return { verdicts: typeof parsed.verdicts === "object" && parsed.verdicts !== null ? parsed.verdicts : {} };
  } catch {
    return { verdicts: {} };
  }
}

/** Temp file + rename, so a reader never sees half a file. The seam a config-folder lock can replace. */
export function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, path);
}
