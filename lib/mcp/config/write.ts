/**
 * Changing a few keys of a JSON file that other programs write too (Claude Code rewrites
 * `~/.claude.json` often): the file is read again just before the write, only the keys named are
 * changed (jsonc-parser's minimal edits, so other keys, their order and the file's indentation
 * and line endings stay), and the new text replaces the old atomically (a temporary file in the
 * same folder, then rename), through a symlink to its target.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { applyEdits, findNodeAtLocation, modify, parseTree } from "jsonc-parser";
import { jsonErrorOffset, lineColumn } from "./json-position.ts";

/** One change: the value at `path` becomes `value`; `undefined` removes the key. */
export interface JsonEdit {
  path: string[];
  value: unknown;
}

/** The file could not be read, parsed or written; the message is one line naming the file. */
export class ConfigWriteError extends Error {}

export interface EditOptions {
  /** Permission bits to give the file on every write (0o600 for the user file); absent → kept, or the umask's default for a new file. */
  mode?: number;
}

/** How many times a write is redone when the file changed between our read and our rename. */
const ATTEMPTS = 5;

/**
 * Applies the edits `plan` returns for the file's current document (`undefined` when the file does
 * not exist yet). `plan` may throw to refuse (a duplicate, a missing entry): nothing is written then.
 * Returns what `plan` returned last.
 * @throws ConfigWriteError when the file is not valid JSON or cannot be written; whatever `plan` throws.
 */
export function editJsonFile<T extends JsonEdit[]>(file: string, plan: (doc: unknown) => T, opts: EditOptions = {}): T {
  const target = resolveLink(file);
  for (let attempt = 1; ; attempt++) {
    const before = readText(target);
    const edits = plan(before === undefined ? undefined : parse(target, before));
    let text = before ?? "";
    const formatting = detectFormatting(text);
    for (const edit of edits) {
      // Removing what is not there is no change (jsonc-parser would throw on an empty document).
      if (edit.value === undefined && !hasPath(text, edit.path)) continue;
      text = applyEdits(text, modify(text, edit.path, edit.value, { formattingOptions: formatting }));
    }
    if (before === undefined || before.endsWith("\n")) text = text.endsWith("\n") ? text : text + formatting.eol;
    if (text === before) return edits;
    // Another program may have written between our read and now: then plan again on its version.
    if (writeAtomically(target, text, before, opts.mode) || attempt >= ATTEMPTS) return edits;
  }
}

function hasPath(text: string, path: string[]): boolean {
  const tree = parseTree(text);
  return tree !== undefined && findNodeAtLocation(tree, path) !== undefined;
}

function resolveLink(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigWriteError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function parse(file: string, text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    const offset = jsonErrorOffset(text);
    const pos = offset >= 0 ? lineColumn(text, offset) : undefined;
    const reason = (err as Error).message.replace(/^JSON Parse error: /, "");
    throw new ConfigWriteError(`${file}: invalid JSON${pos ? ` at line ${pos.line}:${pos.column}` : ""}: ${reason}; not changed`);
  }
}

/** The file's own indentation and line ending; two spaces and LF for a new file (what Claude Code writes). */
function detectFormatting(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indent ? indent.length : 2, eol };
}

/**
 * Writes `text` next to `file`, then renames it over `file` unless the file no longer holds
 * `expected` (another writer came first). Returns false in that case, having written nothing.
 */
function writeAtomically(file: string, text: string, expected: string | undefined, mode: number | undefined): boolean {
  const dir = dirname(file);
  const temp = join(dir, `.${basename(file)}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    mkdirSync(dir, { recursive: true });
    const keep = mode ?? existingMode(file);
    writeFileSync(temp, text, { mode: keep ?? 0o666 });
    // The umask may have narrowed or (for 0o600 it cannot widen) the mode: set it exactly.
    if (keep !== undefined) chmodSync(temp, keep);
    if (readText(file) !== expected) {
      rmSync(temp, { force: true });
      return false;
    }
    renameSync(temp, file);
    return true;
  } catch (err) {
    rmSync(temp, { force: true });
    if (err instanceof ConfigWriteError) throw err;
    throw new ConfigWriteError(`${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function existingMode(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}
