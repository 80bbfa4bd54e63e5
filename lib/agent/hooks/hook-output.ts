/**
 * A hook's stdout or stderr, read with the cap Bash output has (MAX_OUTPUT_CHARS): a hook that
 * prints gigabytes no longer fills memory, nor sends the model a reason of that size. What is
 * past the cap is read and counted, never kept, so the hook is not blocked on a full pipe; the
 * kept text then says where it was cut. A cut PreToolUse answer that no longer parses is a deny
 * (hook-outcome.ts): a hook's refusal must not turn into "ignored" by being long.
 */
import { MAX_OUTPUT_CHARS } from "../../tools/bash.ts";
import { prefix } from "../../files/truncate.ts";

export const MAX_HOOK_OUTPUT_CHARS = MAX_OUTPUT_CHARS;

export interface HookText {
  text: string;
  /** Characters the hook printed, kept or not. */
  total: number;
  cut: boolean;
}

/** Reads `stream` to its end, keeping at most `max` characters and a line saying what was cut. */
export async function readCapped(stream: ReadableStream<Uint8Array>, max: number = MAX_HOOK_OUTPUT_CHARS): Promise<HookText> {
  const decoder = new TextDecoder();
  let kept = "";
  let total = 0;
  const take = (piece: string) => {
    total += piece.length;
    if (kept.length < max) kept += prefix(piece, max - kept.length);
  };
  for await (const chunk of stream) take(decoder.decode(chunk, { stream: true }));
  take(decoder.decode());
  if (total <= max) return { text: kept, total, cut: false };
  return { text: `${kept}\n... [hook output cut: ${kept.length} of ${total} characters kept]`, total, cut: true };
}
