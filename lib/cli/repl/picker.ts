/**
 * `--resume` without an id on a terminal: lists this directory's saved sessions (date, first
 * prompt, prompt count), newest first, and reads the choice. Runs before the session starts.
 */
import * as readline from "node:readline/promises";
import { userConfigDir } from "../../shared/claude-home.ts";
import { terminalText } from "../../shared/terminal-text.ts";
import { listSessions, SessionError } from "../../agent/sessions/sessions.ts";

const SHOWN = 20;

/**
 * The chosen session's id, or null when the user left (Ctrl-D, Ctrl-C, or "q").
 * @throws SessionError when this directory has no saved session
 */
export async function pickSession(cwd: string): Promise<string | null> {
  const sessions = listSessions(userConfigDir(), cwd).slice(0, SHOWN);
  if (!sessions.length) throw new SessionError("no saved conversation in this directory to resume");
  const width = Math.max(20, (process.stdout.columns ?? 80) - 34);
  const lines = sessions.map((s, i) => {
    const when = s.modified.toISOString().slice(0, 16).replace("T", " ");
    // A saved prompt may hold any text (a scripted -p run's, a home's transcript): none of its codes
    // reach the terminal, and the width is counted on what shows.
    const shown = terminalText(s.firstPrompt, { oneLine: true });
    const prompt = shown.length > width ? `${shown.slice(0, width - 1)}…` : shown;
    return `${String(i + 1).padStart(3)}. ${when}  ${String(s.turns).padStart(3)} ${s.turns === 1 ? "turn " : "turns"}  ${prompt || "(no prompt)"}`;
  });
  process.stdout.write(`Resume a conversation:\n${lines.join("\n")}\n`);
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const closed = new Promise<null>((resolve) => rl.once("close", () => resolve(null)));
  rl.on("SIGINT", () => rl.close());
  try {
    for (;;) {
      const answer = await Promise.race([rl.question(`Number (1-${sessions.length}, Enter for 1, q to quit): `), closed]);
      if (answer === null || answer.trim() === "q") return null;
      const n = answer.trim() === "" ? 1 : Number(answer.trim());
      if (Number.isInteger(n) && n >= 1 && n <= sessions.length) return sessions[n - 1]!.id;
    }
  } finally {
    rl.close();
  }
}
