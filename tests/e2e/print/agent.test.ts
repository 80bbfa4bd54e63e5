/**
 * The agent core through the real program: scripted model, fresh temp dir, real files.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

function toolResults(body: any) {
  return body.messages.at(-1).content.filter((b: any) => b.type === "tool_result");
}

describe("print mode", () => {
  test("a plain answer is alone on stdout", async () => {
    server = startModelServer([reply(text("Hello there."))]);
    const dir = tempDir();
    const r = await runAgent(["-p", "say hello"], { cwd: dir, model: server.url });
    expect(r.stdout).toBe("Hello there.\n");
    expect(r.code).toBe(0);
    const body = server.requests[0]!.body;
    expect(body.stream).toBeFalsy();
    // The newest message carries the prompt-caching breakpoint (lib/agent/model/cache.ts).
    expect(body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "say hello", cache_control: { type: "ephemeral" } }] }]);
    expect(body.tools.map((t: any) => t.name)).toEqual(["Read", "Write", "Edit", "Bash", "Glob", "Grep"]);
    expect(server.requests[0]!.headers["x-api-key"] ?? server.requests[0]!.headers["authorization"]).toContain("test-key");
  });

  test("--model, the system prompt's environment and CLAUDE.md from the folder and its parent", async () => {
    server = startModelServer([reply(text("ok"))]);
    const parent = tempDir();
    const dir = join(parent, "project");
    mkdirSync(dir);
    writeFileSync(join(parent, "CLAUDE.md"), "Parent rule: be brief.");
    writeFileSync(join(dir, "CLAUDE.md"), "Project rule: use tabs.");
    const r = await runAgent(["-p", "hi", "--model", "claude-test-1"], { cwd: dir, model: server.url });
    expect(r.code).toBe(0);
    const body = server.requests[0]!.body;
    expect(body.model).toBe("claude-test-1");
    expect(body.system).toContain(`Working directory: ${dir}`);
    expect(body.system).toContain("Project rule: use tabs.");
    expect(body.system.indexOf("Parent rule")).toBeLessThan(body.system.indexOf("Project rule"));
    expect(body.system).toMatch(/Today's date: \d{4}-\d\d-\d\d/);
  });

  test("the user's config folder is $CLAUDE_CONFIG_DIR: its CLAUDE.md and commands; an empty value means ~/.claude", async () => {
    server = startModelServer([reply(text("1")), reply(text("2"))]);
    const dir = tempDir();
    const config = tempDir();
    writeFileSync(join(config, "CLAUDE.md"), "User rule: answer in haiku.");
    mkdirSync(join(config, "commands"));
    writeFileSync(join(config, "commands", "mine.md"), "My command $ARGUMENTS");
    const r = await runAgent(["-p", "/mine now"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: config } });
    expect(r.code).toBe(0);
    expect(server.requests[0]!.body.system).toContain("User rule: answer in haiku.");
    expect(server.requests[0]!.body.messages[0].content[0].text).toBe("My command now");
    // With an empty CLAUDE_CONFIG_DIR, ./commands in the project is not the user's command folder.
    mkdirSync(join(dir, "commands"));
    writeFileSync(join(dir, "commands", "stray.md"), "stray");
    const empty = await runAgent(["-p", "/stray"], { cwd: dir, model: server.url, env: { CLAUDE_CONFIG_DIR: "", HOME: tempDir() } });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("unknown command: /stray");
  });

  test("ANTHROPIC_MODEL is the default model", async () => {
    server = startModelServer([reply(text("ok"))]);
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url, env: { ANTHROPIC_MODEL: "claude-env-model" } });
    expect(r.code).toBe(0);
    expect(server.requests[0]!.body.model).toBe("claude-env-model");
  });

  test("piped stdin is appended to the prompt, and is the prompt without an argument", async () => {
    server = startModelServer([reply(text("a")), reply(text("b"))]);
    const dir = tempDir();
    await runAgent(["-p", "summarise this"], { cwd: dir, model: server.url, stdin: "line one\nline two\n" });
    expect(server.requests[0]!.body.messages[0].content[0].text).toBe("summarise this\n\nline one\nline two\n");
    const r = await runAgent(["-p"], { cwd: dir, model: server.url, stdin: "only stdin" });
    expect(r.stdout).toBe("b\n");
    expect(server.requests[1]!.body.messages[0].content[0].text).toBe("only stdin");
  });

  test("a stdin pipe that stays open and silent does not stall a prompt given as an argument", async () => {
    server = startModelServer([reply(text("not stalled"))]);
    const proc = Bun.spawn([join(import.meta.dir, "../../../your_program.sh"), "-p", "hi"], {
      cwd: tempDir(),
      env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "k" },
      stdin: "pipe",
      stdout: "pipe",
    });
    const out = await new Response(proc.stdout).text();
    expect(out).toBe("not stalled\n");
    expect(await proc.exited).toBe(0);
    proc.stdin.end();
  });

  test("several tool_use blocks in one reply get all their results in one message, matched by id", async () => {
    server = startModelServer([
      reply(toolUse("Read", { file_path: "a.txt" }, "toolu_a"), toolUse("Read", { file_path: "b.txt" }, "toolu_b"), toolUse("Nope", {}, "toolu_c")),
      reply(text("done")),
    ]);
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    writeFileSync(join(dir, "b.txt"), "beta\n");
    const r = await runAgent(["-p", "read both"], { cwd: dir, model: server.url });
    expect(r.stdout).toBe("done\n");
    expect(r.code).toBe(0);
    const results = toolResults(server.requests[1]!.body);
    expect(server.requests[1]!.body.messages.at(-1).role).toBe("user");
    expect(results.map((b: any) => b.tool_use_id)).toEqual(["toolu_a", "toolu_b", "toolu_c"]);
    expect(JSON.stringify(results[0].content)).toContain("alpha");
    expect(JSON.stringify(results[1].content)).toContain("beta");
    expect(results[2].is_error).toBe(true);
    expect(JSON.stringify(results[2].content)).toContain("No such tool: Nope");
  });

  test("--max-turns stops the loop with a non-zero exit and a stderr line", async () => {
    server = startModelServer([reply(toolUse("Glob", { pattern: "*" })), reply(toolUse("Glob", { pattern: "*" })), reply(text("never"))]);
    const r = await runAgent(["-p", "loop", "--max-turns", "2"], { cwd: tempDir(), model: server.url });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("max-turns");
    expect(server.requests.length).toBe(2);
  });

  test("a reply cut off by max_tokens in a tool_use does not run the call", async () => {
    server = startModelServer([
      { content: [toolUse("Write", { file_path: "half.txt", content: "partial" })], stop_reason: "max_tokens" },
      reply(text("recovered")),
    ]);
    const dir = tempDir();
    const r = await runAgent(["-p", "write"], { cwd: dir, model: server.url });
    expect(r.stdout).toBe("recovered\n");
    expect(await Bun.file(join(dir, "half.txt")).exists()).toBe(false);
    const [result] = toolResults(server.requests[1]!.body);
    expect(result.is_error).toBe(true);
    expect(result.content).toContain("max_tokens");
  });

  test("empty text blocks are never sent back", async () => {
    server = startModelServer([reply(text("  "), toolUse("Glob", { pattern: "*.none" })), reply(text("fine"))]);
    const r = await runAgent(["-p", "x"], { cwd: tempDir(), model: server.url });
    expect(r.code).toBe(0);
    const assistant = server.requests[1]!.body.messages[1];
    expect(assistant.role).toBe("assistant");
    expect(assistant.content.every((b: any) => b.type !== "text" || b.text.trim() !== "")).toBe(true);
  });
});

describe("model errors", () => {
  test("a missing key is one stderr line and exit 1, before any request", async () => {
    server = startModelServer([reply(text("unused"))]);
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), env: { ANTHROPIC_BASE_URL: server.url } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    expect(server.requests.length).toBe(0);
  });

  test("ANTHROPIC_AUTH_TOKEN is sent as a bearer token", async () => {
    server = startModelServer([reply(text("ok"))]);
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_AUTH_TOKEN: "tok-123" } });
    expect(r.stdout).toBe("ok\n");
    expect(server.requests[0]!.headers["authorization"]).toBe("Bearer tok-123");
  });

  test("an unreachable endpoint is one stderr line and exit 1", async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const url = `http://127.0.0.1:${probe.port}`;
    probe.stop(true);
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: url });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("cannot reach the API");
    // json's error result keeps the message in `result` and, as the Agent SDK's result does, in `errors`.
    const json = await runAgent(["-p", "hi", "--output-format", "json"], { cwd: tempDir(), model: url });
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ type: "result", subtype: "error_during_execution", is_error: true });
    expect(result.result).toContain("cannot reach the API");
    expect(result.errors).toEqual([result.result]);
  });

  test("an ANTHROPIC_BASE_URL that is not a URL is one line, before any server starts", async () => {
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "not-a-url" } });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('error: ANTHROPIC_BASE_URL is not an http(s) URL: "not-a-url"\n');
    const ftp = await runAgent(["-p", "hi"], { cwd: tempDir(), env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "ftp://x" } });
    expect(ftp.stderr).toBe('error: ANTHROPIC_BASE_URL is not an http(s) URL: "ftp://x"\n');
  });

  test("a refused key names the status", async () => {
    server = startModelServer([{ status: 401, error: { type: "authentication_error", message: "invalid x-api-key" } }]);
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("401");
  });

  test("a 400 is one stderr line naming the status; a 529 is retried", async () => {
    server = startModelServer([{ status: 400, error: { type: "invalid_request_error", message: "bad things" } }]);
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("API error 400: bad things");
    server.stop();
    server = startModelServer([{ status: 529, error: { type: "overloaded_error", message: "Overloaded" } }, reply(text("after retry"))]);
    const again = await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url });
    expect(again.stdout).toBe("after retry\n");
    expect(server.requests.length).toBe(2);
  });
});

describe("input", () => {
  test("an @file mention travels as a separate block naming the path; a folder gives a listing", async () => {
    server = startModelServer([reply(text("seen"))]);
    const dir = tempDir();
    writeFileSync(join(dir, "notes.md"), "# Notes\nremember the milk\n");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src", "main.ts"), "");
    writeFileSync(join(dir, "my file.txt"), "spaced out");
    const r = await runAgent(["-p", 'look at @notes.md, @src and @"my file.txt" but not me@example.com'], { cwd: dir, model: server.url });
    expect(r.code).toBe(0);
    const content = server.requests[0]!.body.messages[0].content;
    expect(content[0].text).toBe('look at @notes.md, @src and @"my file.txt" but not me@example.com');
    expect(content).toHaveLength(4);
    expect(content[1].text).toContain('source="notes.md"');
    expect(content[1].text).toContain("remember the milk");
    expect(content[2].text).toContain("main.ts");
    expect(content[3].text).toContain("spaced out");
  });

  test("a custom command expands $ARGUMENTS and $1 as plain text", async () => {
    server = startModelServer([reply(text("reviewed"))]);
    const dir = tempDir();
    mkdirSync(join(dir, ".claude", "commands"), { recursive: true });
    writeFileSync(join(dir, ".claude", "commands", "review.md"), "---\ndescription: Review a file\n---\nReview $1 carefully. All: $ARGUMENTS");
    const r = await runAgent(["-p", `/review "src/a b.ts" $(rm -rf x) $HOME`], { cwd: dir, model: server.url });
    expect(r.stdout).toBe("reviewed\n");
    expect(server.requests[0]!.body.messages[0].content[0].text).toBe(`Review src/a b.ts carefully. All: "src/a b.ts" $(rm -rf x) $HOME`);
  });

  test("/help in print mode lists what print mode accepts, custom commands included, without a model or a key", async () => {
    server = startModelServer([reply(text("unused"))]);
    const dir = tempDir();
    mkdirSync(join(dir, ".claude", "commands"), { recursive: true });
    writeFileSync(join(dir, ".claude", "commands", "ship.md"), "---\ndescription: Ship it\n---\nShip.");
    const json = await runAgent(["-p", "/help", "--output-format", "json"], { cwd: dir });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ type: "result", subtype: "success", is_error: false });
    expect(JSON.parse(json.stdout).result).toContain("/ship  Ship it (project)");
    const r = await runAgent(["-p", "/help"], { cwd: dir, model: server.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("/mcp");
    expect(r.stdout).toContain("/ship  Ship it (project)");
    expect(r.stdout).not.toContain("/clear");
    expect(server.requests.length).toBe(0);
  });

  test("an unknown command is an error before any model call", async () => {
    server = startModelServer([reply(text("unused"))]);
    const r = await runAgent(["-p", "/nosuch thing"], { cwd: tempDir(), model: server.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("unknown command: /nosuch");
    expect(server.requests.length).toBe(0);
  });

  test("a command of the interactive session says so in -p, with what -p has instead; a project's own command of that name still runs", async () => {
    server = startModelServer([reply(text("ran the project's /status"))]);
    const dir = tempDir();
    const rewind = await runAgent(["-p", "/rewind"], { cwd: dir, model: server.url });
    expect(rewind.code).toBe(1);
    expect(rewind.stderr.trim()).toBe(
      "error: /rewind is a command of the interactive session, not of -p (-p puts files back with --resume <session id> --rewind-files <message id>)",
    );
    const todos = await runAgent(["-p", "/todos", "--output-format", "json"], { cwd: dir, model: server.url });
    expect(todos.code).toBe(1);
    expect(JSON.parse(todos.stdout).errors).toEqual(["/todos is a command of the interactive session, not of -p"]);
    expect(server.requests.length).toBe(0);
    mkdirSync(join(dir, ".claude", "commands"), { recursive: true });
    writeFileSync(join(dir, ".claude", "commands", "status.md"), "Report the status");
    const own = await runAgent(["-p", "/status"], { cwd: dir, model: server.url });
    expect(own.code).toBe(0);
    expect(own.stdout.trim()).toBe("ran the project's /status");
  });
});

describe("flags", () => {
  test("--version and --help", async () => {
    const v = await runAgent(["--version"], { cwd: tempDir() });
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const h = await runAgent(["--help"], { cwd: tempDir() });
    expect(h.stdout).toContain("--output-format");
    expect(h.code).toBe(0);
  });

  test("an unknown flag or a bad value is one stderr line and exit 2", async () => {
    const r = await runAgent(["--bogus"], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown option --bogus (see --help)\n");
    const bad = await runAgent(["-p", "x", "--max-turns", "zero"], { cwd: tempDir() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--max-turns");
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    // A negative number is the flag's value, held to the same rule (not "needs a value").
    const negative = await runAgent(["-p", "x", "--max-turns", "-1"], { cwd: tempDir() });
    expect([negative.code, negative.stderr]).toEqual([2, 'error: --max-turns must be a whole number of at least 1 (got "-1")\n']);
    const missing = await runAgent(["-p", "x", "--model"], { cwd: tempDir() });
    expect(missing.stderr).toBe("error: option --model needs a value\n");
    const empty = await runAgent(["-p", "x", "--model", ""], { cwd: tempDir() });
    expect([empty.code, empty.stderr]).toEqual([2, "error: --model needs a model id\n"]);
    const valued = await runAgent(["--print=yes", "x"], { cwd: tempDir() });
    expect(valued.stderr).toBe("error: option --print takes no value\n");
  });

  test("a --resume that is not a session id, and -p with no prompt at all, are usage errors: one stderr line and exit 2", async () => {
    server = startModelServer([]);
    const resume = await runAgent(["-p", "--resume", "nonexist", "x"], { cwd: tempDir(), model: server.url });
    expect([resume.code, resume.stdout, resume.stderr]).toEqual([2, "", 'error: --resume: "nonexist" is not a session id (a UUID)\n']);
    const none = await runAgent(["-p"], { cwd: tempDir(), model: server.url });
    expect([none.code, none.stdout]).toEqual([2, ""]);
    expect(none.stderr).toStartWith("error: no prompt: ");
    expect(none.stderr.trim().split("\n")).toHaveLength(1);
    // Known before any server starts: a configured one that cannot start adds no line of its own.
    const dir = tempDir();
    writeMcpConfig(dir, { dead: { type: "http", url: "http://127.0.0.1:9/mcp" } });
    const blank = await runAgent(["-p"], { cwd: dir, model: server.url, stdin: "  \n" });
    expect([blank.code, blank.stderr]).toEqual([2, 'error: no prompt: give one as an argument or on stdin (agent -p "…")\n']);
    expect(server.requests).toHaveLength(0);
  });
});
