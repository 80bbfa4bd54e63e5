/**
 * For the sandbox figure: one `-p` run whose model asks for Bash `true` once, timed from the model's
 * tool_use reply to the request carrying its result (the Bash call's turn-around), for our
 * executable or Claude Code's, with the project's sandbox on or off.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../tests/support/model-server.ts";
import { baseEnv, ROOT, tempDir } from "../tests/support/run.ts";
import { runProcess } from "./process-run.ts";

/** Claude Code's executable from the Agent SDK package, when installed. */
export const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
export const haveClaude = () => existsSync(CLAUDE) && Boolean(Bun.which("socat"));

/** Milliseconds from the tool_use reply to the next request; throws when the call did not run as asked. */
export async function bashTurnaround(program: string, claude: boolean, sandboxed: boolean): Promise<number> {
  const dir = tempDir("agent-bench-sbx-");
  const home = tempDir("agent-bench-home-");
  const settings = sandboxed ? { sandbox: { enabled: true, autoAllowBashIfSandboxed: true } } : { permissions: { allow: ["Bash(true)"] } };
  await Bun.write(join(dir, ".claude", "settings.json"), JSON.stringify(settings));
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: true } } }));
  let replied = 0;
  let back = 0;
  const server = startModelServer([
    () => {
      replied = performance.now();
      return reply(toolUse("Bash", { command: "true" }));
    },
    () => {
      back = performance.now();
      return reply(text("done"));
    },
  ]);
  try {
    const env: Record<string, string | undefined> = {
      ...baseEnv(server.url),
      HOME: home,
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    };
    delete env.CLAUDE_CONFIG_DIR;
    const run = await runProcess([claude ? CLAUDE : program, "-p", "go"], { cwd: dir, env });
    const result = JSON.stringify(server.requests[1]?.body.messages.at(-1)?.content ?? "");
    if (run.code !== 0 || !back || /is_error":true/.test(result))
      throw new Error(`${claude ? "claude" : "agent"} -p: the Bash call did not run (${result.slice(0, 120)})`);
    return back - replied;
  } finally {
    server.stop();
  }
}
