/**
 * `--permission-mode plan` in -p, through the real program and a scripted model: each class of
 * call plan mode allows runs, each class it refuses is refused with a message saying plan mode is
 * on (and changes nothing), the model is told in a system-role context message, and ExitPlanMode is
 * not offered. One test per class, so a failure names the class.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Block, type ModelServer, type RecordedRequest, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

/** The plan file the context message names. */
function planFileOf(req: RecordedRequest): string {
  const system = req.body.messages.find((m: { role: string }) => m.role === "system");
  const match = /Write the plan to (\S+\.md),/.exec(JSON.stringify(system?.content ?? ""));
  if (!match) throw new Error("no plan file in the context message");
  return match[1]!;
}

interface Outcome {
  dir: string;
  config: string;
  code: number;
  stdout: string;
  /** The tool_result the model read for the one call. */
  result: { content: unknown; is_error?: boolean };
  requests: RecordedRequest[];
}

/** One -p run in plan mode whose model makes `call` (computed from the first request), then answers "the plan". */
async function planRun(
  call: (req: RecordedRequest, dir: string) => Block,
  opts: { args?: string[]; setup?: (dir: string, config: string) => void } = {},
): Promise<Outcome> {
  const dir = tempDir();
  const config = tempDir("agent-config-");
  writeFileSync(join(dir, "r.txt"), "readable");
  opts.setup?.(dir, config);
  server = startModelServer([(req) => reply(call(req, dir)), reply(text("the plan"))]);
  const r = await runAgent(["-p", "plan it", "--permission-mode", "plan", ...(opts.args ?? [])], {
    cwd: dir,
    model: server.url,
    env: { CLAUDE_CONFIG_DIR: config },
  });
  const result = server.requests[1]?.body.messages.at(-1).content[0];
  return { dir, config, code: r.code, stdout: r.stdout, result, requests: server.requests };
}

const refusedInPlanMode = (o: Outcome) => {
  expect(o.code).toBe(0);
  expect(o.result.is_error).toBe(true);
  expect(JSON.stringify(o.result.content)).toContain("Plan mode is on");
};

const bash = (command: string) => () => toolUse("Bash", { command });

describe("-p --permission-mode plan", () => {
  test("is accepted; the model is told in a system-role message naming the plan file; ExitPlanMode is not offered; the answer is the plan", async () => {
    const o = await planRun(() => toolUse("Read", { file_path: "r.txt" }));
    expect(o.code).toBe(0);
    expect(o.stdout).toBe("the plan\n");
    const first = o.requests[0]!.body;
    expect(first.messages[1].role).toBe("system");
    expect(JSON.stringify(first.messages[1].content)).toContain("Plan mode is on");
    expect(planFileOf(o.requests[0]!)).toStartWith(join(o.config, "plans") + "/");
    expect(first.tools.map((t: { name: string }) => t.name)).not.toContain("ExitPlanMode");
  });

  test("Read runs", async () => {
    const o = await planRun(() => toolUse("Read", { file_path: "r.txt" }));
    expect(JSON.stringify(o.result.content)).toContain("readable");
  });

  test("Glob runs", async () => {
    const o = await planRun(() => toolUse("Glob", { pattern: "*.txt" }));
    expect(o.result.is_error).toBeFalsy();
    expect(JSON.stringify(o.result.content)).toContain("r.txt");
  });

  test("Grep runs", async () => {
    const o = await planRun(() => toolUse("Grep", { pattern: "readable", output_mode: "content" }));
    expect(o.result.is_error).toBeFalsy();
    expect(JSON.stringify(o.result.content)).toContain("readable");
  });

  test("a read-only Bash command runs (ls, cat | grep, git-free)", async () => {
    const o = await planRun(bash("ls -la && cat r.txt | grep -c read"));
    expect(o.result.is_error).toBeFalsy();
    expect(JSON.stringify(o.result.content)).toContain("r.txt");
  });

  for (const [what, command] of [
    ["a program that writes (touch)", "touch made.txt"],
    ["find -delete", "find . -name r.txt -delete"],
    ["find -exec", "find . -name r.txt -exec rm {} ;"],
    ["sort -o (an output file)", "sort -o made.txt r.txt"],
    ["git diff --ext-diff (runs a program)", "git diff --ext-diff --no-index r.txt r.txt"],
    ["sed with a w command", "sed -n 'w made.txt' r.txt"],
    ["a redirection", "cat r.txt > made.txt"],
    ["a command substitution", "echo $(touch made.txt)"],
    ["an unknown option", "ls --frobnicate"],
  ] as const) {
    test(`Bash refuses ${what}`, async () => {
      const o = await planRun(bash(command));
      refusedInPlanMode(o);
      expect(existsSync(join(o.dir, "made.txt"))).toBe(false);
      expect(existsSync(join(o.dir, "r.txt"))).toBe(true);
    });
  }

  test("Write of a file other than the plan is refused", async () => {
    const o = await planRun(() => toolUse("Write", { file_path: "made.txt", content: "x" }));
    refusedInPlanMode(o);
    expect(existsSync(join(o.dir, "made.txt"))).toBe(false);
  });

  test("Edit of a file other than the plan is refused", async () => {
    const o = await planRun(() => toolUse("Edit", { file_path: "r.txt", old_string: "readable", new_string: "changed" }));
    refusedInPlanMode(o);
    expect(readFileSync(join(o.dir, "r.txt"), "utf8")).toBe("readable");
  });

  test("Write, then Edit, of the plan file run", async () => {
    const dir = tempDir();
    const config = tempDir("agent-config-");
    let plan = "";
    server = startModelServer([
      (req) => {
        plan = planFileOf(req);
        return reply(toolUse("Write", { file_path: plan, content: "# Plan\n\n1. first step\n" }));
      },
      () => reply(toolUse("Edit", { file_path: plan, old_string: "first step", new_string: "the first step" })),
      reply(text("the plan")),
    ]);
    const r = await runAgent(["-p", "plan it", "--permission-mode", "plan"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(readFileSync(plan, "utf8")).toBe("# Plan\n\n1. the first step\n");
    expect(server.requests[2]!.body.messages.at(-1).content[0].is_error).toBeFalsy();
  });

  test("a plan file path that is a symbolic link is refused, and its target is untouched", async () => {
    let target = "";
    const o = await planRun((req, dir) => {
      const plan = planFileOf(req);
      target = join(dir, "target.txt");
      writeFileSync(target, "untouched");
      mkdirSync(join(plan, ".."), { recursive: true });
      symlinkSync(target, plan);
      return toolUse("Write", { file_path: plan, content: "overwritten" });
    });
    refusedInPlanMode(o);
    expect(JSON.stringify(o.result.content)).toContain("symbolic link");
    expect(readFileSync(target, "utf8")).toBe("untouched");
  });

  test("another tool (NotebookEdit, asked for with --allowedTools) is refused, past the allow", async () => {
    const o = await planRun(() => toolUse("NotebookEdit", { notebook_path: "n.ipynb", new_source: "x", edit_mode: "insert", cell_type: "code" }), {
      args: ["--allowedTools", "NotebookEdit"],
    });
    refusedInPlanMode(o);
  });

  test("--allowedTools Bash does not loosen plan mode", async () => {
    const o = await planRun(bash("touch made.txt"), { args: ["--allowedTools", "Bash"] });
    refusedInPlanMode(o);
    expect(existsSync(join(o.dir, "made.txt"))).toBe(false);
  });

  const mcp = ["--mcp-config", JSON.stringify({ mcpServers: { fx: fixtureServer() } })];

  test("an MCP tool its server marks readOnlyHint runs", async () => {
    const o = await planRun(() => toolUse("mcp__fx__echo", { text: "hello" }), { args: mcp });
    expect(o.result.is_error).toBeFalsy();
    expect(JSON.stringify(o.result.content)).toContain("hello");
  });

  test("an MCP tool without readOnlyHint is refused", async () => {
    const o = await planRun(() => toolUse("mcp__fx__fail", {}), { args: mcp });
    refusedInPlanMode(o);
    expect(JSON.stringify(o.result.content)).toContain("read-only");
  });

  test("a settings defaultMode plan never puts -p in plan mode", async () => {
    const dir = tempDir();
    const config = tempDir("agent-config-");
    writeFileSync(join(config, "settings.json"), JSON.stringify({ permissions: { defaultMode: "plan" } }));
    server = startModelServer([reply(toolUse("Bash", { command: "touch made.txt" })), reply(text("done"))]);
    const r = await runAgent(["-p", "go"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(existsSync(join(dir, "made.txt"))).toBe(true);
    expect(JSON.stringify(server.requests[0]!.body.messages)).not.toContain("Plan mode is on");
  });

  /** A run whose parent starts `agent`, whose subagent calls Bash `touch made.txt`; the subagent's tool result and the folder. */
  async function subagentTouch(agents: Record<string, unknown>, mode: string[]) {
    const dir = tempDir();
    const isSub = (r: RecordedRequest) => JSON.stringify(r.body.system ?? "").includes("You were started by another agent");
    let parent = 0;
    let sub = 0;
    let subResult: { content: unknown; is_error?: boolean } | undefined;
    const step = (r: RecordedRequest) => {
      if (isSub(r)) {
        if (sub++ === 0) return reply(toolUse("Bash", { command: "touch made.txt" }));
        subResult = r.body.messages.at(-1).content[0];
        return reply(text("sub report"));
      }
      return parent++ === 0 ? reply(toolUse("Agent", { description: "try", prompt: "touch it", subagent_type: Object.keys(agents)[0] })) : reply(text("done"));
    };
    server = startModelServer(Array.from({ length: 10 }, () => step));
    const r = await runAgent(["-p", "go", "--agents", JSON.stringify(agents), ...mode], { cwd: dir, model: server.url, timeoutMs: 60_000 });
    return { code: r.code, made: existsSync(join(dir, "made.txt")), subResult };
  }

  test("a subagent whose definition says bypassPermissions still runs under plan mode", async () => {
    const o = await subagentTouch({ loose: { description: "loose", prompt: "LOOSE", tools: ["Bash"], permissionMode: "bypassPermissions" } }, [
      "--permission-mode",
      "plan",
    ]);
    expect(o.code).toBe(0);
    expect(o.made).toBe(false);
    expect(JSON.stringify(o.subResult?.content)).toContain("Plan mode is on");
  });

  test("a subagent whose definition says plan runs under plan mode in a run without a mode", async () => {
    const o = await subagentTouch({ planner: { description: "plans", prompt: "PLANNER", tools: ["Bash", "Read"], permissionMode: "plan" } }, []);
    expect(o.code).toBe(0);
    expect(o.made).toBe(false);
  });
});
