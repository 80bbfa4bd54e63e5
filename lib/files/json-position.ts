/**
 * Where a JSON text first goes wrong. Bun's JSON.parse errors carry no position, and a user
 * fixing `.mcp.json` needs one, so this re-scans the text with a strict RFC 8259 grammar.
 */

class SyntaxAt {
  constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

/**
 * The UTF-16 offset of the first character a strict JSON parser rejects (`text.length` for an
 * unexpected end), or -1 when the text is valid JSON or too deeply nested to scan. Never throws.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new SyntaxAt(i);
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const expect = (c: string) => (text[i] === c ? i++ : fail());

  function string(): void {
    expect('"');
    for (;;) {
      const c = text[i];
      if (c === undefined || c < " ") fail();
      if (c === '"') return void i++;
      if (c !== "\\") {
        i++;
        continue;
      }
      i++;
      const e = text[i];
      if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else if (e === "u" && ((HEX4.lastIndex = i + 1), HEX4.test(text))) i += 5;
      else fail();
    }
  }

  function members(close: string, member: () => void): void {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      member();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      return void expect(close);
    }
  }

  function value(): void {
    ws();
    const c = text[i];
    if (c === "{") {
      return members("}", () => {
        ws();
        string();
        ws();
        expect(":");
        value();
      });
    }
    if (c === "[") return members("]", value);
    if (c === '"') return string();
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) return void (i += m[0].length);
    for (const literal of ["true", "false", "null"]) if (text.startsWith(literal, i)) return void (i += literal.length);
    fail();
  }

  try {
    value();
    ws();
    return i < text.length ? i : -1;
  } catch (err) {
    if (err instanceof SyntaxAt) return err.offset;
    return -1; // RangeError: nesting deeper than the stack; no position to offer.
  }
}

/** 1-based line and column of a UTF-16 offset in `text` (lines split on `\n`). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf("\n"); nl !== -1 && nl < offset; nl = text.indexOf("\n", nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
