/**
 * `/mcp reconnect <server>` in the interactive session: the server is started afresh (its
 * handshake and lists again), and the model sees its new tools on its next call.
 */
import type { AgentRuntime } from "../../agent/runtime/runtime.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The line to print (ending with a newline) once `server` has connected, failed, or cannot be. */
export async function reconnect(server: string, runtime: AgentRuntime): Promise<string> {
  if (!server || /\s/.test(server)) return "usage: /mcp reconnect <server>\n";
  try {
    const s = await runtime.reconnectServer(server);
    if (s.status === "disabled") return `${s.name}: disabled (${s.error}); not started\n`;
    if (s.status === "failed") return `${s.name}: failed (${s.error})\n`;
    return `${s.name}: connected (${plural(s.tools.length, "tool")}, ${plural(s.prompts.length, "prompt")}, ${plural(s.resources.length, "resource")})\n`;
  } catch (err) {
    return `error: ${(err as Error).message}\n`;
  }
}
