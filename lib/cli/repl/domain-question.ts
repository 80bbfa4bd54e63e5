/**
 * The session's question when a sandboxed command asks its proxy for a domain no settings list
 * names (`sandbox.network.allowedDomains`, WebFetch rules): yes or no, remembered for the run
 * (lib/agent/sandboxing/network-setup.ts keeps the answers). The domain was checked to be a plain
 * host name or address before it got here, so nothing of it can steer the terminal.
 */
import { parseAnswer } from "./permission.ts";
import type { Style } from "../ui/style.ts";

/** `ask` shows a question and resolves with the typed line, or null when the user interrupted. */
export function domainQuestion(ask: (question: string) => Promise<string | null>, style: Style) {
  return async (host: string): Promise<boolean> => {
    const question = `Allow a sandboxed command to reach ${host}? (for the rest of this session) [y]es / [n]o `;
    for (;;) {
      const line = await ask(style.yellow(question));
      if (line === null) return false;
      const parsed = parseAnswer(line);
      if (parsed) return parsed.answer !== "no";
    }
  };
}
