/**
 * The linux-x64 release binary, alone in an empty folder with only the system PATH, doing what is
 * loaded lazily in the product (the HTTP transport, host mode, OAuth, the session with its
 * Markdown and diff rendering) and being installed by install.sh. Registered inside
 * release.test.ts's describe, which owns the one release build.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { type HttpFixture, startHttpFixture } from "../../../fixtures/servers/http-server.ts";
import { reply, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { bearerCheck, type OidcServer, resourceMetadata, startOidc } from "../../support/oidc.ts";
import { toolResults } from "../../support/mcp.ts";
import { runExe, SYSTEM_PATH, userEnv } from "../../support/release.ts";
import { approveAllProjectServers, BUN, ROOT, tempDir } from "../../support/run.ts";
import { TMUX, TmuxSession } from "../../support/tmux.ts";
import { makePdf } from "../../support/pdf-files.ts";
import { startWebPages } from "../../support/web-pages.ts";

const TIMEOUT_MS = 60_000;
const PRM_PATH = "/.well-known/oauth-protected-resource/mcp";

export interface Release {
  /** argv prefix running the binary (placeAlone). */
  exe: string[];
  /** The release folder. */
  release: string;
  model(script: Step[]): ModelServer;
}

const withModel = (m: ModelServer, extra: Record<string, string> = {}) => userEnv({ ANTHROPIC_BASE_URL: m.url, ANTHROPIC_API_KEY: "test-key", ...extra });
const mcpJson = (dir: string, servers: Record<string, unknown>) => writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));

export function linuxX64Extras(ctx: () => Release): void {
  if (!TMUX) console.warn("tmux is not installed: skipping the release binary's session test");
  let plain: HttpFixture;
  let guarded: HttpFixture;
  let oidc: OidcServer;
  beforeAll(async () => {
    plain = startHttpFixture([]);
    let resource = "";
    guarded = startHttpFixture([], {
      authorize: (req) => {
        const url = new URL(req.url);
        if (url.pathname === PRM_PATH) return resourceMetadata(resource, oidc.issuer, ["mcp:read"]);
        return bearerCheck(oidc.provider, req, resource, `${url.origin}${PRM_PATH}`, ["mcp:read"]);
      },
    });
    resource = guarded.url;
    oidc = await startOidc({ resource, scopes: ["mcp:read"] });
  });
  afterAll(async () => {
    plain?.stop();
    guarded?.stop();
    await oidc?.close();
  });

  test(
    "-p calls the tools of a Streamable HTTP server and of a legacy HTTP+SSE one",
    async () => {
      const cwd = tempDir();
      mcpJson(cwd, { web: { type: "http", url: plain.url }, old: { type: "sse", url: plain.sseUrl } });
      const m = ctx().model([
        reply(toolUse("mcp__web__echo", { text: "over streamable http" }), toolUse("mcp__old__echo", { text: "over sse" })),
        reply(text("http answered")),
      ]);
      const r = await runExe(ctx().exe, ["-p", "call echo"], { cwd, env: withModel(m) });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "http answered\n", ""]);
      expect(toolResults(m.requests[1]!).map((b) => b.content)).toEqual(["over streamable http", "over sse"]);
    },
    TIMEOUT_MS,
  );

  test(
    "-p with a project's settings and skills: the deny rule holds and the skill's front matter is read (the settings engine and YAML load lazily)",
    async () => {
      const cwd = tempDir();
      mkdirSync(join(cwd, ".claude/skills/greet"), { recursive: true });
      writeFileSync(join(cwd, ".claude/settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
      writeFileSync(
        join(cwd, ".claude/skills/greet/SKILL.md"),
        "---\nname: greet\ndescription: Says hello in the house style\n---\nSay hello to $ARGUMENTS.\n",
      );
      writeFileSync(join(cwd, "victim.txt"), "keep me\n");
      const m = ctx().model([reply(toolUse("Bash", { command: "rm -f victim.txt" })), reply(text("refused"))]);
      const r = await runExe(ctx().exe, ["-p", "/greet the release"], { cwd, env: withModel(m) });
      expect([r.code, r.stdout]).toEqual([0, "refused\n"]);
      expect(readFileSync(join(cwd, "victim.txt"), "utf8")).toBe("keep me\n");
      expect(JSON.stringify(m.requests[0]!.body.messages)).toContain("Say hello to the release.");
      expect(JSON.stringify(m.requests[0]!.body.messages)).toContain("- greet: Says hello in the house style");
      expect(toolResults(m.requests[1]!)[0]).toMatchObject({ is_error: true });
    },
    TIMEOUT_MS,
  );

  test(
    "-p with --json-schema, WebFetch of an HTML page and Read of a long PDF (ajv, turndown and unpdf load lazily)",
    async () => {
      const cwd = tempDir();
      writeFileSync(join(cwd, "long.pdf"), makePdf(Array.from({ length: 101 }, (_, i) => `page ${i + 1} text`)));
      const web = startWebPages();
      try {
        const m = ctx().model([
          reply(toolUse("WebFetch", { url: web.url("/page"), prompt: "what?" }), toolUse("Read", { file_path: "long.pdf" })),
          reply(text("it says hello")),
          reply(toolUse("StructuredOutput", { n: 1 })),
        ]);
        const args = ["-p", "go", "--allowedTools", "WebFetch(domain:127.0.0.1)", "--json-schema", '{"type":"object","properties":{"n":{"type":"integer"}}}'];
        const r = await runExe(ctx().exe, args, { cwd, env: withModel(m) });
        expect([r.code, r.stdout]).toEqual([0, '{"n":1}\n']);
        expect(m.requests[1]!.body.messages[0].content[0].text).toContain("# Hello Head");
        const results = toolResults(m.requests[2]!);
        expect(results[0]).toMatchObject({ content: "it says hello" });
        expect(JSON.stringify(results[1])).toContain("--- page 101 ---");
      } finally {
        web.stop();
      }
    },
    TIMEOUT_MS,
  );

  test(
    "host mode: the Agent SDK's query() runs it and gets the answer as a success result",
    async () => {
      const m = ctx().model([reply(text("hosted answer"))]);
      const messages: SDKMessage[] = [];
      for await (const msg of query({ prompt: "say it", options: { pathToClaudeCodeExecutable: ctx().exe[0], cwd: tempDir(), env: withModel(m) } }))
        messages.push(msg);
      expect(messages.find((x) => x.type === "system" && x.subtype === "init")).toBeDefined();
      expect(messages.filter((x) => x.type === "result")).toMatchObject([{ subtype: "success", is_error: false, result: "hosted answer" }]);
    },
    TIMEOUT_MS,
  );

  test(
    "OAuth: mcp login against a real authorization server, then -p calls the protected tool",
    async () => {
      const cwd = tempDir();
      mcpJson(cwd, { fx: { type: "http", url: guarded.url } });
      const env = userEnv({ BROWSER: `${BUN} ${join(ROOT, "tests/support/oidc-browser.ts")}` });
      const login = await runExe(ctx().exe, ["mcp", "login", "fx"], { cwd, env });
      expect([login.code, login.stdout]).toEqual([0, 'Logged in to MCP server "fx"\n']);
      const m = ctx().model([reply(toolUse("mcp__fx__echo", { text: "with a token" })), reply(text("authorized"))]);
      const r = await runExe(ctx().exe, ["-p", "call echo"], { cwd, env: { ...env, ANTHROPIC_BASE_URL: m.url, ANTHROPIC_API_KEY: "test-key" } });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "authorized\n", ""]);
      expect(m.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ content: "with a token" });
    },
    TIMEOUT_MS,
  );

  test.skipIf(!TMUX)(
    "the interactive session in tmux: Markdown answer, an Edit's diff asked about, exit on Ctrl-D",
    async () => {
      const cwd = tempDir();
      writeFileSync(join(cwd, "n.txt"), "one\ntwo\nthree\n");
      const m = ctx().model([reply(toolUse("Edit", { file_path: "n.txt", old_string: "two", new_string: "TWO" })), reply(text("Done: **edited** `n.txt`."))]);
      const env = withModel(m, { TERM: "xterm-256color" });
      approveAllProjectServers(env.HOME!);
      const term = await TmuxSession.start({ command: ctx().exe, cwd, env });
      try {
        await term.waitFor((s) => s.trimEnd().endsWith("\n>") || s.trimEnd() === ">");
        await term.type("shout two");
        await term.waitFor("> shout two");
        await term.keys("Enter");
        const asked = await term.waitFor("Allow Edit(n.txt)?");
        expect(asked).toContain("-two\n+TWO\n");
        await term.type("y");
        await term.keys("Enter");
        const done = await term.waitFor("Done: edited `n.txt`.");
        expect(done).not.toContain("**edited**");
        expect(readFileSync(join(cwd, "n.txt"), "utf8")).toBe("one\nTWO\nthree\n");
        await term.keys("C-d");
        expect(await term.waitForExit()).toBe(0);
      } finally {
        await term.kill();
      }
    },
    TIMEOUT_MS,
  );

  test("install.sh from the release folder installs it into a prefix, where it runs", async () => {
    const prefix = join(tempDir("prefix-"), "bin");
    const env = userEnv();
    const r = Bun.spawnSync(["sh", join(ctx().release, "install.sh"), "--prefix", prefix], { cwd: tempDir(), env, stdout: "pipe", stderr: "pipe" });
    expect([r.exitCode, r.stderr.toString()]).toEqual([0, ""]);
    expect(r.stdout.toString()).toStartWith(`installed agent-linux-x64 as ${prefix}/agent\n`);
    const v = await runExe([join(prefix, "agent")], ["--version"], { cwd: tempDir(), env: { ...env, PATH: `${prefix}:${SYSTEM_PATH}` } });
    expect([v.code, v.stdout]).toMatchObject([0, expect.stringContaining("(agent, ")]);
  });
}
