/**
 * The Agent SDK's `allowedTools` and `disallowedTools` with scoped rules (`Bash(touch:*)`), through
 * the official SDK driving our executable against the scripted model: they are rules like a
 * settings file's, decided before the host's `canUseTool` is asked. Slow (real processes):
 * SKIP_SLOW=1 skips it locally, never in CI.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
let server: ModelServer | undefined;
afterEach(() => server?.stop());

test.skipIf(SKIP)(
  "a scoped allowedTools rule runs its command unasked, a scoped disallowedTools rule denies its command, the rest goes to canUseTool",
  async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "victim.txt"), "x");
    server = startModelServer([
      reply(
        toolUse("Bash", { command: "touch made.txt" }),
        toolUse("Bash", { command: "rm -f victim.txt" }),
        toolUse("Bash", { command: "touch other.txt && printf hi" }),
      ),
      reply(text("done")),
    ]);
    const asked: unknown[] = [];
    const canUseTool: Options["canUseTool"] = async (_name, input) => {
      asked.push(input.command);
      return { behavior: "deny", message: "no" };
    };
    const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
    const options: Options = {
      pathToClaudeCodeExecutable: PROGRAM,
      cwd: dir,
      env,
      canUseTool,
      allowedTools: ["Bash(touch:*)"],
      disallowedTools: ["Bash(rm:*)"],
    };
    for await (const _ of query({ prompt: "go", options })) {
      // drain
    }
    expect(existsSync(join(dir, "made.txt"))).toBe(true);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(existsSync(join(dir, "other.txt"))).toBe(false);
    // Only the compound command, whose second part no rule allows, reached the host.
    expect(asked).toEqual(["touch other.txt && printf hi"]);
    const results = server.requests[1]!.body.messages.at(-1).content;
    expect(results[1]).toMatchObject({ is_error: true, content: "Permission to use Bash with command rm -f victim.txt has been denied." });
  },
  60_000,
);
