/**
 * Terminal input decoding for the interactive prompt: raw-mode text in, key events out.
 * Understands bracketed paste (xterm `CSI 200~ … CSI 201~`), CSI and SS3 cursor keys, Alt+key as
 * ESC + key, the kitty keyboard protocol (`CSI code;mods u`) and xterm modifyOtherKeys
 * (`CSI 27;mods;code ~`), so Shift+Enter is told from Enter where the terminal reports it.
 * A lone Esc is told from the start of a sequence by a short timeout (ESC_TIMEOUT_MS), as
 * terminals give no other way: `feed` keeps an unfinished sequence, `flush` ends it.
 */

/** How long (ms) a lone ESC waits for the rest of a sequence before it counts as the Esc key. */
export const ESC_TIMEOUT_MS = 50;

export type Key =
  | { kind: "text"; text: string }
  | { kind: "paste"; text: string }
  | {
      kind:
        | "enter"
        | "newline"
        | "backspace"
        | "delete"
        | "left"
        | "right"
        | "up"
        | "down"
        | "home"
        | "end"
        | "word-left"
        | "word-right"
        | "tab"
        | "shift-tab"
        | "escape"
        | "ctrl-c"
        | "ctrl-d"
        | "ctrl-a"
        | "ctrl-e"
        | "ctrl-k"
        | "ctrl-u"
        | "ctrl-w"
        | "ctrl-l"
        | "ctrl-z";
    };

/** Sequences that turn on bracketed paste, kitty's disambiguate flag and modifyOtherKeys mode 1. */
export const KEYS_ON = "\x1b[?2004h\x1b[>1u\x1b[>4;1m";
/** Their reverse, for every way of leaving. */
export const KEYS_OFF = "\x1b[?2004l\x1b[<u\x1b[>4;0m";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const CONTROL: Record<string, Key["kind"]> = {
  "\r": "enter",
  "\n": "newline",
  "\t": "tab",
  "\x7f": "backspace",
  "\b": "backspace",
  "\x03": "ctrl-c",
  "\x04": "ctrl-d",
  "\x01": "ctrl-a",
  "\x05": "ctrl-e",
  "\x0b": "ctrl-k",
  "\x15": "ctrl-u",
  "\x17": "ctrl-w",
  "\x0c": "ctrl-l",
  "\x1a": "ctrl-z",
  "\x02": "left",
  "\x06": "right",
};

const CSI_FINAL: Record<string, Key["kind"]> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", Z: "shift-tab" };
const CSI_TILDE: Record<string, Key["kind"]> = { "1": "home", "7": "home", "4": "end", "8": "end", "3": "delete" };

/** Decodes one terminal's input; keep one per input stream (it holds unfinished sequences). */
export class KeyDecoder {
  private pending = "";
  private paste: string | undefined;

  /** Decodes `chunk` (already UTF-8 decoded); an unfinished sequence waits for the next call or `flush`. */
  feed(chunk: string): Key[] {
    this.pending += this.paste === undefined && !chunk.includes(PASTE_START) ? halveDoubledCr(chunk) : chunk;
    const keys: Key[] = [];
    for (;;) {
      if (this.paste !== undefined) {
        const end = this.pending.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible half of the end marker for the next chunk.
          const keep = partialSuffix(this.pending, PASTE_END);
          this.paste += this.pending.slice(0, this.pending.length - keep);
          this.pending = this.pending.slice(this.pending.length - keep);
          return keys;
        }
        keys.push({ kind: "paste", text: normalizePaste(this.paste + this.pending.slice(0, end)) });
        this.paste = undefined;
        this.pending = this.pending.slice(end + PASTE_END.length);
        continue;
      }
      if (!this.pending) return keys;
      const step = this.next(this.pending);
      if (!step) return keys; // unfinished sequence
      this.pending = this.pending.slice(step.length);
      if (step.key) pushKey(keys, step.key);
    }
  }

  /** True while the decoder holds the start of an escape sequence (the caller then times `flush`). */
  get waiting(): boolean {
    return this.paste === undefined && this.pending.startsWith("\x1b");
  }

  /** Ends an unfinished sequence: a lone ESC is the Esc key; anything after it is decoded again. */
  flush(): Key[] {
    if (!this.waiting) return [];
    const rest = this.pending.slice(1);
    this.pending = "";
    return [{ kind: "escape" }, ...this.feed(rest)];
  }

  /** The next key at the start of `s` and how many characters it used; undefined when unfinished. */
  private next(s: string): { length: number; key?: Key } | undefined {
    const c = s[0]!;
    if (c !== "\x1b") {
      const kind = CONTROL[c];
      if (kind) return { length: 1, key: { kind } as Key };
      if (c < " ") return { length: 1 }; // other control characters mean nothing here
      let end = 1;
      while (end < s.length && s[end]! >= " " && s[end] !== "\x7f") end++;
      return { length: end, key: { kind: "text", text: s.slice(0, end) } };
    }
    if (s.length === 1) return undefined;
    if (s.startsWith(PASTE_START)) {
      this.paste = "";
      return { length: PASTE_START.length };
    }
    const second = s[1]!;
    if (second === "[") return csi(s);
    if (second === "O") return s.length < 3 ? undefined : { length: 3, key: ssKey(s[2]!) };
    // Alt+key arrives as ESC + key.
    if (second === "\r" || second === "\n") return { length: 2, key: { kind: "newline" } };
    if (second === "b") return { length: 2, key: { kind: "word-left" } };
    if (second === "f") return { length: 2, key: { kind: "word-right" } };
    if (second === "\x7f") return { length: 2, key: { kind: "ctrl-w" } };
    // Anything else after ESC: the Esc key, then that character as typed (nothing is lost).
    return { length: 1, key: { kind: "escape" } };
  }
}

function ssKey(c: string): Key | undefined {
  const kind = CSI_FINAL[c];
  return kind ? ({ kind } as Key) : undefined;
}

/** A CSI sequence: ESC [ params intermediates final (ECMA-48 5.4). */
function csi(s: string): { length: number; key?: Key } | undefined {
  let i = 2;
  while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x3f) i++;
  while (i < s.length && s.charCodeAt(i) >= 0x20 && s.charCodeAt(i) <= 0x2f) i++;
  if (i >= s.length) return s.length > 32 ? { length: s.length } : undefined;
  const final = s[i]!;
  const params = s.slice(2, i);
  const length = i + 1;
  const nums = params.split(";").map((p) => Number.parseInt(p, 10));
  const mods = Number.isNaN(nums[1] ?? Number.NaN) ? 1 : nums[1]!;
  if (final === "u") return { length, key: codeKey(nums[0] ?? 0, mods) };
  if (final === "~" && nums[0] === 27) return { length, key: codeKey(nums[2] ?? 0, mods) };
  if (final === "~") {
    const kind = CSI_TILDE[params.split(";")[0]!];
    return { length, key: kind ? ({ kind } as Key) : undefined };
  }
  const kind = CSI_FINAL[final];
  if (!kind) return { length };
  // Ctrl or Alt with the horizontal arrows move by words.
  const modified = mods > 1 && (kind === "left" || kind === "right");
  if (modified) return { length, key: { kind: kind === "left" ? "word-left" : "word-right" } };
  return { length, key: { kind } as Key };
}

/**
 * A key reported by code point and modifiers (kitty `CSI code;mods u`, modifyOtherKeys
 * `CSI 27;mods;code ~`): mods is 1 + a bit mask (1 shift, 2 alt, 4 ctrl).
 */
function codeKey(code: number, mods: number): Key | undefined {
  const bits = Math.max(0, mods - 1);
  const ctrl = (bits & 4) !== 0;
  if (code === 13) return { kind: bits ? "newline" : "enter" };
  if (code === 27) return { kind: "escape" };
  if (code === 9) return { kind: bits & 1 ? "shift-tab" : "tab" };
  if (code === 127 || code === 8) return { kind: bits & 6 ? "ctrl-w" : "backspace" };
  if (ctrl && code >= 97 && code <= 122) {
    const kind = CONTROL[String.fromCharCode(code - 96)];
    return kind ? ({ kind } as Key) : undefined;
  }
  if (code >= 32 && !ctrl) return { kind: "text", text: String.fromCodePoint(code) };
  return undefined;
}

/** Adjacent text keys are merged, so a burst of typing is one insertion. */
function pushKey(keys: Key[], key: Key): void {
  const last = keys.at(-1);
  if (key.kind === "text" && last?.kind === "text") last.text += key.text;
  else keys.push(key);
}

/** Pasted text with CRLF and lone CR as LF (terminals send Enter as CR inside a paste), CR CR as one (see halveDoubledCr). */
export function normalizePaste(text: string): string {
  return halveDoubledCr(text).replace(/\r\n?/g, "\n");
}

/**
 * A paste that turned each LF into CR (tmux's paste-buffer without -r) makes CRLF text CR CR:
 * when `text` carries more than line breaks and every run of CRs in it is of even length, each
 * pair is one break. A CR typed on its own (a read of just "\r") stays Enter.
 */
export function halveDoubledCr(text: string): string {
  const runs = text.match(/\r+/g);
  if (!runs || runs.some((r) => r.length % 2) || !/[^\x00-\x1f\x7f]/.test(text)) return text;
  return text.replace(/\r+/g, (r) => "\r".repeat(r.length / 2));
}

/** How many characters at the end of `s` are a proper prefix of `marker`. */
function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) if (s.endsWith(marker.slice(0, n))) return n;
  return 0;
}
