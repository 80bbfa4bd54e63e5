/**
 * `--json-schema` side by side with Claude Code's own executable (from the Agent SDK package,
 * offline, same schema, same scripted replies): the same subtype, `structured_output` and `result`
 * for a matching call, a mismatch then a match, and two text answers (the one reminder between
 * them: two model calls in both), and the retry limit. Skipped when the executable
 * is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { reply, type Step, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);
const SLOW = 90_000;
const SCHEMA = JSON.stringify({ type: "object", properties: { name: { type: "string" } }, required: ["name"] });

/** One program's json result for the script, with its exit code and the number of model calls. */
async function side(program: "claude" | "agent", script: Step[], extraEnv: Record<string, string> = {}) {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const server = startModelServer(script);
  const args = ["-p", "who?", "--json-schema", SCHEMA, "--output-format", "json"];
  try {
    let r: { code: number; stdout: string; stderr: string };
    if (program === "agent") r = await runAgent(args, { cwd: dir, model: server.url, env: { HOME: home, ...extraEnv } });
    else {
      const env = { ...baseEnv(server.url), HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ...extraEnv } as Record<
        string,
        string
      >;
      delete env.CLAUDE_CONFIG_DIR;
      const proc = Bun.spawn([CLAUDE, ...args], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      r = { code, stdout, stderr };
    }
    const result = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    return {
      code: r.code,
      calls: server.requests.length,
      subtype: result.subtype,
      result: result.result,
      structured_output: result.structured_output,
      is_error: result.is_error,
    };
  } finally {
    server.stop();
  }
}

const both = (script: () => Step[], env: Record<string, string> = {}) => Promise.all([side("claude", script(), env), side("agent", script(), env)]);

describe.skipIf(!HAVE_CLAUDE)("--json-schema side by side with Claude Code", () => {
  test(
    "a matching call ends the run: same subtype, result and structured_output",
    async () => {
      const [cc, ours] = await both(() => [reply(toolUse("StructuredOutput", { name: "Alice" }))]);
      expect(ours).toEqual(cc);
      expect(ours.structured_output).toEqual({ name: "Alice" });
    },
    SLOW,
  );

  test(
    "a mismatch, then a match",
    async () => {
      const [cc, ours] = await both(() => [reply(toolUse("StructuredOutput", { nom: "x" })), reply(toolUse("StructuredOutput", { name: "Bo" }))]);
      expect(ours).toEqual(cc);
    },
    SLOW,
  );

  test(
    "text, the reminder, text again: success with structured_output null",
    async () => {
      const [cc, ours] = await both(() => [reply(text("plain answer")), reply(text("plain again"))]);
      // The package's older executable leaves the field out here; 2.1.332 sends null, as we do, so a script can tell.
      expect({ ...ours, structured_output: undefined }).toEqual({ ...cc, structured_output: undefined });
      expect(ours.structured_output).toBeNull();
    },
    SLOW,
  );

  test(
    "MAX_STRUCTURED_OUTPUT_RETRIES invalid calls: the same exit code, subtype and model calls",
    async () => {
      const bad = () => reply(toolUse("StructuredOutput", { nom: 1 }));
      const [cc, ours] = await both(() => [bad(), bad(), bad(), reply(text("gave up"))], { MAX_STRUCTURED_OUTPUT_RETRIES: "2" });
      // Claude Code's error result has no `result`; ours keeps "", as every -p error result does.
      const seen = (x: typeof ours) => ({ code: x.code, subtype: x.subtype, calls: x.calls, is_error: x.is_error });
      expect(seen(ours)).toEqual(seen(cc));
      expect(seen(ours)).toEqual({ code: 1, subtype: "error_max_structured_output_retries", calls: 2, is_error: true });
    },
    SLOW,
  );
});
