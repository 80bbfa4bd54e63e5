/**
 * Grep through ripgrep (`rg`), when it is installed.
 */
import { statSync } from "node:fs";
import { dirname } from "node:path";
import type { GrepLines, GrepQuery } from "./query.ts";
import { ToolError } from "../tool-error.ts";
import { SKIPPED_DIRS } from "../../files/walk.ts";

/** Most bytes of rg output read (bytes); rg is stopped past this so a runaway search cannot fill memory. */
const MAX_RG_OUTPUT_BYTES = 20 * 1024 * 1024;

/**
 * rg's argument list for `query`. Hidden files are searched and SKIPPED_DIRS excluded, as in the
 * fallback; .gitignore is respected (rg's default, which the fallback does not read).
 * The pattern goes after `-e` and the path after `--`, so neither is ever taken for a flag.
 */
export function ripgrepArgs(query: GrepQuery): string[] {
  const args = ["--color=never", "--no-heading", "--with-filename", "--hidden", "--sort=path"];
  for (const dir of SKIPPED_DIRS) args.push("--glob", `!${dir}`);
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.glob !== undefined) args.push("--glob", query.glob);
  if (query.type !== undefined) args.push("--type", query.type);
  // After the user's glob: in rg a later glob wins, so nothing the model asks for can bring these back.
  if (query.excluded) {
    const searched = isDirectory(query.path) ? query.path : dirname(query.path);
    for (const glob of query.excluded.globs(searched)) args.push("--glob", `!${glob}`);
  }
  if (query.mode === "files_with_matches") args.push("--files-with-matches");
  else if (query.mode === "count") args.push("--count");
  else {
    args.push(query.lineNumbers ? "--line-number" : "--no-line-number");
    if (query.before > 0) args.push("--before-context", String(query.before));
    if (query.after > 0) args.push("--after-context", String(query.after));
  }
  args.push("-e", query.pattern, "--", query.path);
  return args;
}

/**
 * Runs `rgPath` for `query` and returns its output lines (see GrepLines); [] when nothing matched
 * (exit 1). Throws ToolError with rg's message when it fails (exit 2 without output), e.g. a bad regex.
 */
export async function grepWithRipgrep(rgPath: string, query: GrepQuery, signal: AbortSignal): Promise<GrepLines> {
  // rg roots --glob patterns containing "/" at its working directory, so run it in the searched one.
  const cwd = isDirectory(query.path) ? query.path : dirname(query.path);
  const proc = Bun.spawn([rgPath, ...ripgrepArgs(query)], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", signal });
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of proc.stdout) {
    chunks.push(chunk);
    bytes += chunk.length;
    if (bytes > MAX_RG_OUTPUT_BYTES) {
      proc.kill();
      break;
    }
  }
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (signal.aborted) throw new ToolError("Search interrupted");
  const stdout = Buffer.concat(chunks).toString("utf8");
  if (code === 2 && stdout === "") throw new ToolError(`ripgrep failed: ${stderr.trim().split("\n")[0] || "exit code 2"}`);
  // CRLF files: rg prints a matched line's CR; the fallback (and the model) does not want it.
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    throw new ToolError(`Path does not exist: ${path}`);
  }
}
