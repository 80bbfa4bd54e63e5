/**
 * What the small model reads when WebFetch asks it about a page: the page's text between `---`
 * lines, the caller's prompt, and rules for a short answer that quotes little (our wording; the
 * shape is Claude Code's).
 */

export const SIDE_SYSTEM = "You read one web page for another assistant and answer its question about the page, briefly and accurately.";

export function sidePrompt(text: string, prompt: string): string {
  return [
    "The web page's content:",
    "---",
    text,
    "---",
    "",
    prompt,
    "",
    "Answer from the page's content only, concisely. Quote at most a sentence or two at a time, always in quotation marks; " +
      "never reproduce song lyrics or long passages. If the page does not say, answer that it does not.",
  ].join("\n");
}
