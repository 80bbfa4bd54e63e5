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
  const server = startModelServer(script);
  try {
    const r = await runOne(program, server.url, "json", extraEnv);
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

/** One run of `program` with the schema, in `format`, against the scripted model at `url`. */
async function runOne(program: "claude" | "agent", url: string, format: string, extraEnv: Record<string, string> = {}) {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  const args = ["-p", "who?", "--json-schema", SCHEMA, "--output-format", format];
  if (program === "agent") return runAgent(args, { cwd: dir, model: url, env: { HOME: home, ...extraEnv } });
  const env = { ...baseEnv(url), HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ...extraEnv } as Record<string, string>;
  delete env.CLAUDE_CONFIG_DIR;
  const proc = Bun.spawn([CLAUDE, ...args], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Both programs' stdout and exit code in text output for the same script. */
async function bothText(script: () => Step[]) {
  const out: { code: number; stdout: string }[] = [];
  for (const program of ["claude", "agent"] as const) {
    const server = startModelServer(script());
    try {
      const r = await runOne(program, server.url, "text");
      out.push({ code: r.code, stdout: r.stdout });
    } finally {
      server.stop();
    }
  }
  return out;
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

  test(
    "text output: a matching call prints its JSON; text twice prints the last text, exit 0, as Claude Code does",
    async () => {
      const [cc, ours] = await bothText(() => [reply(toolUse("StructuredOutput", { name: "Alice" }))]);
      expect(ours).toEqual(cc!);
      expect(JSON.parse(ours!.stdout)).toEqual({ name: "Alice" });
      const [ccText, oursText] = await bothText(() => [reply(text("plain answer")), reply(text("plain again"))]);
      expect(oursText).toEqual(ccText!);
    },
    SLOW,
  );
});
