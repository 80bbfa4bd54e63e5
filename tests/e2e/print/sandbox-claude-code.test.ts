/**
 * Side by side with Claude Code's own executable (from the Agent SDK package, offline, the same
 * project and settings file, the same scripted model): the same `sandbox` settings give the same
 * allowed and refused outcomes for writes (/etc, the home, a protected project file, the project)
 * and for the network (a loopback server on the allow-list through the proxy, one off it refused),
 * judged by their effect on disk or by what reached the model. Skipped when the executable is not
 * installed or bubblewrap cannot run; Claude Code also needs socat.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";
import { sandboxRuns } from "../../support/sandbox.ts";
import { projectSettings } from "./settings-support.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const hasSocat = Boolean(Bun.which("socat"));
// Claude Code's sandbox bridges its proxy with socat: without it, one line says why this file is skipped.
if (!hasSocat) console.log("skipping the sandbox side by side with Claude Code: socat is not installed (apt-get install socat)");
const runs = existsSync(CLAUDE) && hasSocat && sandboxRuns("the sandbox side by side with Claude Code");
const SLOW = 180_000;
// Loopback addresses other than 127.0.0.1, which Claude Code's NO_PROXY sends around its proxy.
const allowed = Bun.serve({ hostname: "127.0.0.2", port: 0, fetch: () => new Response("ALLOWED-PAGE") });
const refused = Bun.serve({ hostname: "127.0.0.3", port: 0, fetch: () => new Response("REFUSED-PAGE") });
afterAll(() => {
  allowed.stop(true);
  refused.stop(true);
});

interface Outcome {
  etc: boolean;
  home: boolean;
  mcpJson: boolean;
  project: boolean;
  allowedDomain: boolean;
  otherDomain: boolean;
}

async function side(program: "agent" | "claude"): Promise<Outcome> {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const marker = `agent-sbx-cc-${program}-${process.pid}`;
  writeFileSync(join(dir, ".mcp.json"), '{"mcpServers":{}}\n');
  projectSettings({ dir, config: home }, { sandbox: { enabled: true, autoAllowBashIfSandboxed: true, network: { allowedDomains: ["127.0.0.2"] } } });
  // Claude Code asks nothing in a trusted folder; ours reads the same key.
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects: { [dir]: { hasTrustDialogAccepted: true } } }));
  const bash = (command: string) => reply(toolUse("Bash", { command }));
  const server = startModelServer([
    bash(`touch /etc/${marker} ~/${marker}; echo '{}' > .mcp.json; echo in > inside.txt; true`),
    bash(`curl -sS -m 20 http://127.0.0.2:${allowed.port}/; curl -sS -m 20 http://127.0.0.3:${refused.port}/; true`),
    reply(text("done")),
  ]);
  try {
    if (program === "agent") await runAgent(["-p", "hello"], { cwd: dir, model: server.url, env: { HOME: home, CLAUDE_CONFIG_DIR: undefined } });
    else {
      const ccEnv: Record<string, string | undefined> = {
        ...baseEnv(server.url),
        HOME: home,
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      };
      delete ccEnv.CLAUDE_CONFIG_DIR;
      const proc = Bun.spawn([CLAUDE, "-p", "hello"], { cwd: dir, env: ccEnv as Record<string, string>, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      await proc.exited;
    }
    const sent = JSON.stringify(server.requests.map((r) => r.body.messages));
    return {
      etc: existsSync(`/etc/${marker}`),
      home: existsSync(join(home, marker)),
      mcpJson: readFileSync(join(dir, ".mcp.json"), "utf8") !== '{"mcpServers":{}}\n',
      project: existsSync(join(dir, "inside.txt")),
      allowedDomain: sent.includes("ALLOWED-PAGE"),
      otherDomain: sent.includes("REFUSED-PAGE"),
    };
  } finally {
    server.stop();
  }
}

describe.skipIf(!runs)("the sandbox side by side with Claude Code", () => {
  test(
    "the same settings file: the same writes refused and allowed, the same domains reached",
    async () => {
      const [claude, ours] = await Promise.all([side("claude"), side("agent")]);
      const expected: Outcome = { etc: false, home: false, mcpJson: false, project: true, allowedDomain: true, otherDomain: false };
      expect(ours).toEqual(expected);
      expect(claude).toEqual(expected);
    },
    SLOW,
  );
});
