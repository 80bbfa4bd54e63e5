/**
 * A server's stderr tail in a one-line failure report (for server-lines.ts and the inspector).
 * Runtimes print an error, then a stack, an object dump and a version line; the report keeps
 * the lines a person would read: the error's own line first, then the last few others, each as
 * it was written (trimmed).
 */

/** Lines that name an error: `Error:`, `TypeError`, `ModuleNotFoundError`, `npm ERR!`, `fatal`, `cannot …`. */
const NAMES_ERROR = /(error|exception)\b|\bERR!|\bfatal\b|\bcannot\b|\bnot found\b/i;
/** Lines shown besides the error's own. */
const OTHER_LINES = 2;
/** Longest suffix text (characters) before it is cut with `…`. */
const MAX_CHARS = 500;

/**
 * The lines of `tail` worth reading, in order: trimmed, without blank lines, stack frames
 * (`at …`), lines with no letter or digit (`}`, `^`), and the members of an object dump (from a
 * line ending in `{` to its closing `}`).
 */
export function readableLines(tail: readonly string[]): string[] {
  const kept: string[] = [];
  let depth = 0;
  for (const raw of tail) {
    const line = raw.trim();
    if (depth > 0) {
      if (/^[}\]]/.test(line)) depth--;
      else if (/[{[]$/.test(line)) depth++;
      continue;
    }
    if (/^at\s/.test(line)) {
      if (line.endsWith("{")) depth = 1;
      continue;
    }
    if (!/[\p{L}\p{N}]/u.test(line)) continue;
    kept.push(line);
  }
  return kept;
}

/**
 * " (stderr: …)" for a one-line report, "" when nothing readable: the last line that names an
 * error, then the last two readable lines (readableLines) after it, or before it when none
 * follow, joined with " | "; without such a line, the last three readable lines.
 */
export function stderrSuffix(tail: readonly string[]): string {
  const lines = readableLines(tail);
  const at = lines.findLastIndex((l) => NAMES_ERROR.test(l));
  if (at < 0) return suffix(lines.slice(-(OTHER_LINES + 1)));
  // What follows the error (a version line, a hint) says more than what led to it (a source line).
  const after = lines.slice(at + 1).slice(-OTHER_LINES);
  return suffix([lines[at]!, ...(after.length ? after : lines.slice(0, at).slice(-OTHER_LINES))]);
}

function suffix(shown: string[]): string {
  const text = shown.join(" | ");
  return text ? ` (stderr: ${text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}…` : text})` : "";
}
