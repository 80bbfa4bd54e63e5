/**
 * Terminal colours for the interactive session: ANSI SGR codes, only when the stream is a
 * terminal and NO_COLOR is unset (no-color.org: any non-empty value disables colour).
 */
import { ourColoursOnly, terminalText } from "../../shared/terminal-text.ts";

export interface Style {
  readonly enabled: boolean;
  dim(s: string): string;
  bold(s: string): string;
  italic(s: string): string;
  underline(s: string): string;
  strike(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  magenta(s: string): string;
  cyan(s: string): string;
}

/** True when `stream` is a TTY and `env.NO_COLOR` is unset or empty. */
export function colorEnabled(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}

/** A style that wraps text in SGR codes when `enabled`, and returns it unchanged otherwise. */
export function createStyle(enabled: boolean): Style {
  const sgr = (open: number, close: number) => (s: string) => (enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    enabled,
    dim: sgr(2, 22),
    bold: sgr(1, 22),
    italic: sgr(3, 23),
    underline: sgr(4, 24),
    strike: sgr(9, 29),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
  };
}

/**
 * `log` for lines that may carry a server's or a hook's own codes (its stderr lines and tails, its
 * log messages): on a colour stream (colorEnabled) only colour codes pass (ourColoursOnly), so no
 * clipboard write, title, link or cursor move reaches the terminal; otherwise every code and
 * control character goes (terminalText), so a pipe or a NO_COLOR run gets plain text.
 */
export function plainUnlessColor(log: (line: string) => void, color: boolean): (line: string) => void {
  return color ? (line) => log(ourColoursOnly(line)) : (line) => log(terminalText(line));
}
