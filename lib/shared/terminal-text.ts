/**
 * The one sanitizer for text from outside (a server, a repository file, a hook, a web page, a
 * model's tool call) on its way to a terminal. A terminal obeys what it is sent: an OSC 52 write
 * sets the clipboard, OSC 0/2 the window title, OSC 8 a hidden link, CSI codes move the cursor and
 * erase what the user read. So:
 * - `terminalText` removes every escape sequence and control character (newline and tab kept, or
 *   folded to spaces for one line), and the bidi overrides that reorder what is shown;
 * - `visibleText` shows them instead (`\x1b]52;…`), where a person must judge the string (a trust
 *   or approval question), so an odd name looks odd rather than clean;
 * - `ourColoursOnly` is the last filter before a terminal stream: only SGR colour codes survive.
 * Pure functions, no imports.
 */

/**
 * One token of what a terminal would act on, longest forms first: CSI (7- and 8-bit), a terminated
 * string sequence (OSC, DCS, SOS, PM, APC; 7- and 8-bit; BEL or ST ends it), any other ESC
 * sequence, a lone ESC, a C0/C1 control or DEL, a bidi embedding/override/isolate.
 * Tab and newline are not in it: the callers decide about them.
 */
const TOKEN =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)|\x1b[ -/]*[0-~]|[\x00-\x08\x0b-\x1f\x7f-\x9f]|[\u202a-\u202e\u2066-\u2069]/g;

/** An SGR (colour, bold, dim) sequence: the only code a terminal sees from us in running text. */
const SGR = /^\x1b\[[0-9;:]*m$/;

/**
 * `text` without escape sequences, control characters or bidi overrides. CRLF becomes a newline.
 * With `oneLine`, newlines and tabs become spaces too.
 */
export function terminalText(text: string, opts: { oneLine?: boolean } = {}): string {
  const clean = text.replace(/\r\n/g, "\n").replace(TOKEN, "");
  return opts.oneLine ? clean.replace(/[\n\t]/g, " ") : clean;
}

/**
 * `text` with every control character, escape introducer and bidi override written out as an
 * escape (`\x1b`, `\x07`, `\u202e`, and `\n`, `\t` too): for a name, command or URL a person is
 * asked to approve, which must read as exactly what will run.
 */
export function visibleText(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * The last filter before a terminal: our own SGR colour codes, newlines and tabs pass; every other
 * sequence and control character is removed. For text we compose around outside strings.
 */
export function ourColoursOnly(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(TOKEN, (token) => (SGR.test(token) ? token : ""));
}

/** True when `text` holds anything `terminalText` would remove. */
export function hasControls(text: string): boolean {
  TOKEN.lastIndex = 0;
  const found = TOKEN.test(text);
  TOKEN.lastIndex = 0;
  return found;
}
