/**
 * Splits a command's argument text into words the way a POSIX shell would quote them, without
 * evaluating anything: `"Bug in login" high` → ["Bug in login", "high"]. No expansion of
 * `$VAR`, `$(...)` or globs ever happens: the words are plain text.
 */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && (text[i + 1] === '"' || text[i + 1] === "\\")) word += text[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  // An unclosed quote keeps what it opened rather than failing: user input, not a script.
  if (inWord) words.push(word);
  return words;
}
