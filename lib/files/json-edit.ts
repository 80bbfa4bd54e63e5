/**
 * Changing a few keys of a JSON file that other programs write too (Claude Code rewrites
 * `~/.claude.json` often): the file is read again just before the write, only the keys named are
 * changed (jsonc-parser's minimal edits, so other keys, their order and the file's indentation
 * and line endings stay), and the new text replaces the old atomically (a temporary file in the
 * same folder, then rename), through a symlink to its target, all under Claude Code's own lock
 * (lib/files/locked-write.ts), so neither program loses the other's change.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree } from "jsonc-parser";
import { ConfigWriteError, lockedWrite } from "./locked-write.ts";
import { jsonErrorOffset, lineColumn } from "./json-position.ts";

export { ConfigWriteError } from "./locked-write.ts";

/** One change: the value at `path` becomes `value`; `undefined` removes the key. */
export interface JsonEdit {
  path: string[];
  value: unknown;
}

export interface EditOptions {
  /** Permission bits to give the file on every write (0o600 for the user file); absent → kept, or the umask's default for a new file. */
  mode?: number;
}

/**
 * Applies the edits `plan` returns for the file's current document (`undefined` when the file does
 * not exist yet), under the lock-and-merge rule of lib/files/locked-write.ts (Claude Code's own
 * lock). `plan` may throw to refuse (a duplicate, a missing entry): nothing is written then; it
 * runs again on the newer document when another writer came between our read and our rename.
 * Returns what `plan` returned last.
 * @throws ConfigWriteError when the file is not valid JSON, is locked, or cannot be written; whatever `plan` throws.
 */
export function editJsonFile<T extends JsonEdit[]>(file: string, plan: (doc: unknown) => T, opts: EditOptions = {}): T {
  let edits!: T;
  lockedWrite(
    file,
    (before) => {
      edits = plan(before === undefined ? undefined : parse(file, before));
      let text = before ?? "";
      const formatting = detectFormatting(text);
      for (const edit of edits) {
        // Removing what is not there is no change (jsonc-parser would throw on an empty document).
        if (edit.value === undefined && !hasPath(text, edit.path)) continue;
        text = applyEdits(text, modify(text, edit.path, edit.value, { formattingOptions: formatting }));
      }
      if (before === undefined || before.endsWith("\n")) text = text.endsWith("\n") ? text : text + formatting.eol;
      return text;
    },
    opts,
  );
  return edits;
}

function hasPath(text: string, path: string[]): boolean {
  const tree = parseTree(text);
  return tree !== undefined && findNodeAtLocation(tree, path) !== undefined;
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
