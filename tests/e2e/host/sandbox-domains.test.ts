/**
 * In host mode, a sandboxed command's request for a domain no settings list names goes to the
 * host's `canUseTool` as the pseudo-tool `SandboxNetworkAccess` with `{host}`, through the official
 * Agent SDK driving our executable against the scripted model; the answer decides, and lasts the run.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { type ModelServer, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";
import { sandboxRuns } from "../../support/sandbox.ts";

const runs = sandboxRuns("the host-mode sandbox domain test");
let server: ModelServer | undefined;
afterEach(() => server?.stop());
const page = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("PAGE-FROM-HOST") });
afterAll(() => page.stop(true));

test.skipIf(!runs)(
  "an unlisted domain is asked about through canUseTool; yes lets curl through, no refuses, each asked once",
  async () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
    const curl = (host: string) => toolUse("Bash", { command: `curl -sS -m 20 http://${host}:${page.port}/; curl -sS -m 20 http://${host}:${page.port}/` });
    server = startModelServer([reply(curl("localhost")), reply(curl("127.0.0.1")), reply(text("done"))]);
    const asked: string[] = [];
    const canUseTool: Options["canUseTool"] = async (name, input) => {
      if (name === "Bash") return { behavior: "allow", updatedInput: input };
      asked.push(`${name} ${JSON.stringify(input)}`);
      return input.host === "localhost" ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: "no" };
    };
    const env = { ...baseEnv(server.url), CLAUDE_CONFIG_DIR: tempDir("agent-config-") } as Record<string, string>;
    for await (const _ of query({ prompt: "go", options: { pathToClaudeCodeExecutable: PROGRAM, cwd: dir, env, canUseTool } })) {
      // drain
    }
    expect(asked).toEqual(['SandboxNetworkAccess {"host":"localhost"}', 'SandboxNetworkAccess {"host":"127.0.0.1"}']);
    const result = (n: number) => JSON.stringify(server!.requests[n]!.body.messages.at(-1).content);
    expect(result(1)).toContain("PAGE-FROM-HOSTPAGE-FROM-HOST");
    expect(result(2)).toContain("the sandbox refused 127.0.0.1");
    expect(result(2)).not.toContain("PAGE-FROM-HOST");
  },
  60_000,
);
