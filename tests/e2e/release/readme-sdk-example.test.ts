/**
 * README's Agent SDK example, run as written (its one placeholder, the executable's path, filled
 * in, a stdio server added) with the official SDK against the scripted model: it answers through
 * its in-process MCP tool, and the SDK prints no deprecation warning (the example sets
 * `mcpServersDelivery`).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { BUN, baseEnv, fixtureServer, PROGRAM, ROOT, tempDir } from "../../support/run.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;
let server: ModelServer | undefined;
afterEach(() => server?.stop());

/** The first js block after README's host-mode heading. */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Driven by the Agent SDK"));
  const block = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("README: no js example under the Agent SDK heading");
  return block;
}

describe.skipIf(SKIP)("README's Agent SDK example", () => {
  test("runs on this executable, answers through its SDK tool, with no SDK warning", async () => {
    server = startModelServer([reply(toolUse("mcp__calc__add", { a: 2, b: 3 })), reply(text("5"))]);
    const dir = tempDir();
    // Imports resolved from this checkout, so the program runs from a folder of its own.
    const program = readmeExample()
      .replace('"/path/to/agent/dist/agent"', JSON.stringify(PROGRAM))
      .replace('"@anthropic-ai/claude-agent-sdk"', JSON.stringify(Bun.resolveSync("@anthropic-ai/claude-agent-sdk", ROOT)))
      .replace('"zod"', JSON.stringify(Bun.resolveSync("zod", ROOT)))
      // A stdio server next to the in-process one, as a program usually has: the SDK warns about
      // how such servers are passed unless the options say.
      .replace("mcpServers: { calc }", `mcpServers: { calc, fx: ${JSON.stringify(fixtureServer())} }`);
    expect(program).toContain(PROGRAM);
    expect(program).toContain("calc, fx: ");
    writeFileSync(join(dir, "example.mjs"), program);
    const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
    const proc = Bun.spawn([BUN, join(dir, "example.mjs")], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: "5\n" });
    expect(stderr).not.toContain("DEPRECATED");
    expect(server.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ type: "tool_result", content: "5" });
  }, 60_000);
});
