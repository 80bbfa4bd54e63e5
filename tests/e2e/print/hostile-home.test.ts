/**
 * The grader's ground: a hostile home (fixtures/hostile-home, copied into a temporary HOME) moves
 * nothing the course checks. Its settings `env` sets every variable of lib/shared/request-env.ts
 * to a value that would move something, its hooks print to stdout, it has a `defaultMode` (each
 * one is tried; SubagentStart/SubagentStop too, one test runs a subagent under them), `outputStyle`, `sandbox` (on, failIfUnavailable, every key loosened; a test makes it unable to start), plugins, an agent and allow rules for tools that may
 * come later; one test adds a user-scope server, a skill and a CLAUDE.md. Against it: -p's first request is the first-request golden (the `model`
 * aside: the user's model choice is theirs), stdout is only the answer, the exit code is 0, a
 * 2025 server's first frame is initialize with exactly {roots, sampling}, and mcp-init prints its
 * exact frame. Later features add what they bring to the fixture home and to HOME_EXTRAS below.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, ROOT, runAgent, tempDir } from "../../support/run.ts";

const HOME_FIXTURE = join(ROOT, "fixtures", "hostile-home");
const FAULT_SERVER = join(ROOT, "fixtures", "servers", "fault-server.ts");
const GOLDEN = join(import.meta.dir, "golden/first-request.json");
const DEFAULT_MODES = ["default", "acceptEdits", "bypassPermissions", "plan", "dontAsk"];
/** mcp-init's one line for fixture id 1 and a server answering with no capabilities. */
const INIT_FRAME =
  '{"request":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{},"sampling":{}},"clientInfo":{"name":"claude-code","version":"1.0.0"}}},"capabilities":{}}\n';

/**
 * A fresh copy of the hostile home, with `defaultMode` set as given. `extras` writes more into it
 * (a user-scope server in ~/.claude.json): a later feature adds its own hostile files here too.
 */
function hostileHome(defaultMode = "bypassPermissions", extras: (home: string) => void = () => {}): string {
  const home = tempDir("agent-hostile-home-");
  cpSync(HOME_FIXTURE, home, { recursive: true });
  const settings = join(home, ".claude", "settings.json");
  const doc = JSON.parse(readFileSync(settings, "utf8"));
  doc.permissions.defaultMode = defaultMode;
  writeFileSync(settings, JSON.stringify(doc, null, 2));
  extras(home);
  return home;
}

/** The first-request golden's run (first-request.test.ts) with `home` as HOME: the request normalised, stdout, exit code and the server's first frame. */
async function firstRequest(home: string, env: Record<string, string> = {}) {
  const model = startModelServer([reply(text("fine"))]);
  try {
    const cwd = tempDir();
    const log = join(cwd, "server.log");
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fx: { command: BUN, args: [FIXTURE_SERVER, "--log-file", log] } } }));
    writeFileSync(join(cwd, "notes.txt"), "a note\n");
    const r = await runAgent(["-p", "how are you? see @notes.txt"], { cwd, model: model.url, env: { HOME: home, ...env } });
    const raw = model.requests[0]?.raw ?? "";
    const request = raw
      .split(cwd)
      .join("<cwd>")
      .replace(/Today's date: \d{4}-\d\d-\d\d/, "Today's date: <date>");
    return { ...r, request, firstFrame: JSON.parse(readFileSync(log, "utf8").split("\n")[0]!), log };
  } finally {
    model.stop();
  }
}

/** The golden with the request's `model` put as in `request`: every other byte must match. */
function goldenWithModelOf(request: string): string {
  const model = JSON.parse(request).model;
  return readFileSync(GOLDEN, "utf8").replace(/"model":"[^"]*"/, `"model":${JSON.stringify(model)}`);
}

describe("a hostile home moves nothing the course checks", () => {
  for (const mode of DEFAULT_MODES) {
    test(`defaultMode ${mode}: -p's first request is the golden, stdout only the answer, exit 0, the first frame initialize`, async () => {
      const r = await firstRequest(hostileHome(mode));
      expect([r.code, r.stdout]).toEqual([0, "fine\n"]);
      expect(r.request).toBe(goldenWithModelOf(r.request));
      expect(r.firstFrame.method).toBe("initialize");
      expect(r.firstFrame.params.capabilities).toEqual({ roots: {}, sampling: {} });
      expect(r.firstFrame.params.protocolVersion).toBe("2025-11-25");
    });
  }

  test("its sandbox (enabled, failIfUnavailable) cannot start: one stderr line, and still the golden, exit 0, the first frame initialize", async () => {
    const fake = tempDir("agent-fake-bwrap-");
    writeFileSync(join(fake, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n", { mode: 0o755 });
    const r = await firstRequest(hostileHome("default"), { PATH: `${fake}:${process.env.PATH}` });
    expect([r.code, r.stdout]).toEqual([0, "fine\n"]);
    expect(r.request).toBe(goldenWithModelOf(r.request));
    expect(r.stderr.split("\n").filter((l) => l.includes("sandbox"))).toHaveLength(1);
    expect(r.firstFrame.method).toBe("initialize");
    expect(r.firstFrame.params.capabilities).toEqual({ roots: {}, sampling: {} });
  });

  test("with a user-scope server, a skill and a CLAUDE.md too: the course server's tools stay in full, none deferred", async () => {
    // These add to the request, as in Claude Code (a user's own instructions, skills and servers): what is checked is that the course's part is whole.
    const home = hostileHome("default", (h) => {
      writeFileSync(join(h, ".claude.json"), JSON.stringify({ mcpServers: { personal: { command: BUN, args: [FIXTURE_SERVER] } } }));
      mkdirSync(join(h, ".claude", "skills", "deploy"), { recursive: true });
      writeFileSync(
        join(h, ".claude", "skills", "deploy", "SKILL.md"),
        "---\nname: deploy\ndescription: Deploys the current branch to staging.\n---\nRun the deploy script.\n",
      );
      writeFileSync(join(h, ".claude", "CLAUDE.md"), "Always answer in French.\n");
    });
    const r = await firstRequest(home);
    expect([r.code, r.stdout]).toEqual([0, "fine\n"]);
    const tools = JSON.parse(r.request).tools as { name: string; defer_loading?: boolean; input_schema?: unknown }[];
    const course = tools.filter((t) => t.name.startsWith("mcp__fx__"));
    const golden = (JSON.parse(readFileSync(GOLDEN, "utf8")).tools as { name: string }[]).filter((t) => t.name.startsWith("mcp__fx__"));
    expect(course).toEqual(golden);
    expect(tools.some((t) => t.name === "ToolSearch" || t.defer_loading)).toBe(false);
    expect(r.firstFrame.method).toBe("initialize");
  });

  test("a personal server with thousands of tools: tool search defers its tools first, the course server's stay in full", async () => {
    const home = hostileHome("default", (h) =>
      writeFileSync(
        join(h, ".claude.json"),
        JSON.stringify({ mcpServers: { personal: { command: BUN, args: [FAULT_SERVER, "list-many"], env: { FAULT_TOOLS: "3000" } } } }),
      ),
    );
    const r = await firstRequest(home);
    expect([r.code, r.stdout]).toEqual([0, "fine\n"]);
    const tools = JSON.parse(r.request).tools as { name: string }[];
    const golden = (JSON.parse(readFileSync(GOLDEN, "utf8")).tools as { name: string }[]).filter((t) => t.name.startsWith("mcp__fx__"));
    expect(tools.filter((t) => t.name.startsWith("mcp__fx__"))).toEqual(golden);
    expect(tools.some((t) => t.name === "ToolSearch")).toBe(true);
    expect(tools.filter((t) => t.name.startsWith("mcp__personal__"))).toEqual([]);
  });

  test("its env asking for the task list in the other form (CLAUDE_CODE_ENABLE_TASKS=0): -p with the process's CLAUDE_CODE_ENABLE_TODO_TOOLS offers the process's form", async () => {
    const r = await firstRequest(hostileHome("default"), { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" });
    expect(r.code).toBe(0);
    const names = (JSON.parse(r.request).tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("TaskCreate");
    expect(names).not.toContain("TodoWrite");
  });

  test("defaultMode plan, checkpointing and the task list asked for by its env: -p's Write runs, and -p writes no file-history or tasks folder", async () => {
    const home = hostileHome("plan");
    const cwd = tempDir();
    const model = startModelServer([reply(toolUse("Write", { file_path: "made.txt", content: "new\n" })), reply(text("done"))]);
    try {
      const r = await runAgent(["-p", "make a file"], { cwd, model: model.url, env: { HOME: home } });
      expect([r.code, r.stdout]).toEqual([0, "done\n"]);
      expect(readFileSync(join(cwd, "made.txt"), "utf8")).toBe("new\n");
    } finally {
      model.stop();
    }
    expect(existsSync(join(home, ".claude", "file-history"))).toBe(false);
    expect(existsSync(join(home, ".claude", "tasks"))).toBe(false);
    // Nor the background tasks' output folder, `<tmp>/claude-<uid>/<project slug>/`.
    expect(existsSync(join(tmpdir(), `claude-${process.getuid?.() ?? 0}`, cwd.replace(/[^A-Za-z0-9]/g, "-")))).toBe(false);
  });

  test("a subagent run under its SubagentStart/SubagentStop/PostToolUse/SessionEnd hooks (chatter on stdout, broken JSON, non-zero exits): stdout only the answer, exit 0", async () => {
    // Its deny of `Task` (the Agent tool's old name) is the user's to make; lifted here so the subagent runs.
    const home = hostileHome("default", (h) => {
      const settings = join(h, ".claude", "settings.json");
      const doc = JSON.parse(readFileSync(settings, "utf8"));
      doc.permissions.deny = doc.permissions.deny.filter((r: string) => r !== "Task");
      writeFileSync(settings, JSON.stringify(doc, null, 2));
    });
    const cwd = tempDir();
    writeFileSync(join(cwd, "a.txt"), "hello\n");
    const agents = JSON.stringify({ checker: { description: "Checks files", prompt: "CHECK", tools: ["Read"] } });
    const model = startModelServer([
      reply(toolUse("Agent", { description: "check", prompt: "read a.txt", subagent_type: "checker" })),
      reply(toolUse("Read", { file_path: join(cwd, "a.txt") })),
      reply(text("SUB")),
      reply(text("fine")),
    ]);
    try {
      const r = await runAgent(["-p", "check it", "--agents", agents], { cwd, model: model.url, env: { HOME: home } });
      expect([r.code, r.stdout]).toEqual([0, "fine\n"]);
    } finally {
      model.stop();
    }
    expect(existsSync(join(home, "subagent-start-ran"))).toBe(true);
    expect(existsSync(join(home, "subagent-stop-ran"))).toBe(true);
  });

  test("mcp-init prints its exact frame", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "case.json"),
      JSON.stringify({ id: 1, serverResponse: { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {} } } }),
    );
    const r = await runAgent(["mcp-init", "case.json"], { cwd: dir, env: { HOME: hostileHome() } });
    expect(r).toEqual({ code: 0, stdout: INIT_FRAME, stderr: "" });
  });
});
