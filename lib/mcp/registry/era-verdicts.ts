/**
 * Remembered era verdicts (MCP 2026-07-28, basic/versioning §Backward Compatibility: "MAY persist
 * across restarts of the same server configuration, re-probing if the cached assumption later
 * fails"), in `mcp-protocol-eras.json` in the config folder. Keyed by a fingerprint of a stdio
 * server's command, args, env and cwd, or by an HTTP server's URL origin; never by its name. Read
 * only when discovery first is opted into.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { lockedWrite } from "../../files/locked-write.ts";
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

/**
 * Remembers `verdict` for `key` under the config folder's write rule (lib/files/locked-write.ts:
 * lock, re-read, merge, atomic rename), so runs starting at once keep each other's verdicts. A
 * failure to write only costs the next run a probe.
 */
export function rememberVerdict(dir: string, key: string, verdict: Verdict): void {
  const known = readVerdict(dir, key);
  // The usual case, a verdict confirmed: no lock, no write.
  if (known && known.era === verdict.era && known.protocolVersion === verdict.protocolVersion) return;
  try {
    mkdirSync(dir, { recursive: true });
    lockedWrite(
      join(dir, VERDICTS_FILE),
      (current) => {
        const file = parseFile(current);
        const old = file.verdicts[key];
        if (old && old.era === verdict.era && old.protocolVersion === verdict.protocolVersion) return undefined;
        file.verdicts[key] = verdict;
        return `${JSON.stringify(file, null, 2)}\n`;
      },
      { mode: 0o600 },
    );
  } catch {
    // Best effort: a read-only config folder means probing again, nothing worse.
  }
}

function readFile(path: string): VerdictFile {
  try {
    return parseFile(readFileSync(path, "utf8"));
  } catch {
    return { verdicts: {} };
  }
}

function parseFile(text: string | undefined): VerdictFile {
  try {
    const parsed = JSON.parse(text ?? "{}") as Partial<VerdictFile>;
    return { verdicts: typeof parsed.verdicts === "object" && parsed.verdicts !== null ? parsed.verdicts : {} };
  } catch {
    return { verdicts: {} };
  }
}
