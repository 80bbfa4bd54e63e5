/**
 * Why a server's command could not be started, in words a user can act on. The errno comes from
 * the operating system's spawn (posix_spawn / execve); Bun reports it as `code` on the error.
 */
import { extname } from "node:path";
import { errorMessage } from "../../shared/values.ts";

/** The interpreter to suggest for a script, by its extension; `sh` when nothing better is known. */
const INTERPRETERS: Record<string, string> = { ".js": "node", ".mjs": "node", ".cjs": "node", ".ts": "bun", ".py": "python3", ".rb": "ruby", ".pl": "perl" };

/**
 * The Error for a failed spawn of `command`: `command not found: x` when it is not on PATH;
 * ENOEXEC (a file the kernel cannot execute, e.g. a script without a `#!` line) and EACCES (not
 * executable) name the fix, running it through its interpreter; anything else keeps the system's
 * message after `cannot start "x": `.
 */
export function spawnError(command: string, error: unknown): Error {
  const text = errorMessage(error);
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  if (/executable not found/i.test(text)) return new Error(`command not found: ${command}`);
  const head = `cannot start ${JSON.stringify(command)}`;
  const interpreter = `run it through its interpreter, e.g. "command": ${JSON.stringify(INTERPRETERS[extname(command)] ?? "sh")}`;
  if (code === "ENOEXEC") return new Error(`${head}: not an executable program (no #! line?); ${interpreter}`);
  if (code === "EACCES") return new Error(`${head}: permission denied (not marked executable? chmod +x it, or ${interpreter})`);
  return new Error(`${head}: ${text}`);
}
