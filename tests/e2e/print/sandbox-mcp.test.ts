/**
 * Stdio MCP servers in the OS sandbox (`sandbox.mcpServers`), in -p through the real program: npm's
 * filesystem server writes inside the project and is refused outside it; a fetching server reaches
 * only the domains its entry names; a server whose command is missing is one line and skipped; the
 * home's server keys do not count in -p.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { BUN, ROOT, tempDir } from "../../support/run.ts";
import { npmServer } from "../../support/mcp.ts";
import { sandboxRuns } from "../../support/sandbox.ts";
import { place, resultsOf, runPrint, userSettings } from "./settings-support.ts";

const runs = sandboxRuns("the sandboxed MCP server tests");
const FETCH_SERVER = join(ROOT, "fixtures", "servers", "fetch-server.ts");
const page = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("PAGE-FROM-HOST") });
afterAll(() => page.stop(true));
const mcpJson = (dir: string, servers: Record<string, unknown>) => writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
const sandboxFlag = (mcpServers: unknown) => ["--settings", JSON.stringify({ sandbox: { mcpServers } })];
const contentOf = (run: Awaited<ReturnType<typeof runPrint>>, n: number) => JSON.stringify(resultsOf(run, n)[0]?.content ?? "");

describe.skipIf(!runs)("sandboxed MCP servers", () => {
  test("npm's filesystem server writes in the project, and the sandbox refuses it a protected file there", async () => {
    // The server narrows itself to our roots (the project), so what the sandbox alone refuses is shown inside it.
    const p = place();
    mcpJson(p.dir, { fs: npmServer("filesystem", [p.dir]) });
    const run = await runPrint(
      p,
      [
        reply(toolUse("mcp__fs__write_file", { path: join(p.dir, "inside.txt"), content: "in" })),
        reply(toolUse("mcp__fs__write_file", { path: join(p.dir, ".mcp.json"), content: "{}" })),
        reply(toolUse("mcp__fs__write_file", { path: join(p.dir, ".envrc"), content: "export X=1" })),
      ],
      sandboxFlag({ enabled: true }),
    );
    expect(run.code).toBe(0);
    expect(readFileSync(join(p.dir, "inside.txt"), "utf8")).toBe("in");
    for (const n of [1, 2]) {
      expect(resultsOf(run, n)[0]?.is_error).toBe(true);
      expect(contentOf(run, n)).toMatch(/EROFS|read-only|EACCES|EBUSY|permission denied/i);
    }
    expect(JSON.parse(readFileSync(join(p.dir, ".mcp.json"), "utf8")).mcpServers.fs).toBeDefined();
    // The server has ended with the run: the mask bubblewrap made for the missing .envrc is gone too.
    expect(existsSync(join(p.dir, ".envrc"))).toBe(false);
  });

  test("outside the project the server may write only in its own state folder, where npm's and uv's caches are its own", async () => {
    const p = place();
    const home = tempDir("agent-home-");
    const outside = join(tempDir("agent-outside-"), "escaped.txt");
    const state = join(p.config, "mcp-sandbox", "sh");
    const script = `echo x > ${outside}; echo "outside=$?" > ${state}/note.txt; mkdir -p ~/.npm 2>/dev/null; echo "npm=$?" >> ${state}/note.txt; echo "cache=$npm_config_cache uv=$UV_CACHE_DIR" >> ${state}/note.txt; exec ${BUN} ${FETCH_SERVER}`;
    mcpJson(p.dir, { sh: { command: "sh", args: ["-c", script] } });
    const run = await runPrint(p, [], sandboxFlag({ enabled: true }), { env: { HOME: home } });
    expect(run.code).toBe(0);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(home, ".npm"))).toBe(false);
    expect(readFileSync(join(state, "note.txt"), "utf8")).toBe(`outside=2\nnpm=1\ncache=${state}/npm-cache uv=${state}/uv-cache\n`);
  });

  test("a server reaches only the domains its entry names; another server with none reaches nothing", async () => {
    const p = place();
    mcpJson(p.dir, { web: { command: BUN, args: [FETCH_SERVER] }, closed: { command: BUN, args: [FETCH_SERVER] } });
    const url = (host: string) => `http://${host}:${page.port}/`;
    const run = await runPrint(
      p,
      [
        reply(toolUse("mcp__web__fetch_url", { url: url("localhost") })),
        reply(toolUse("mcp__web__fetch_url", { url: url("127.0.0.1") })),
        reply(toolUse("mcp__closed__fetch_url", { url: url("localhost") })),
      ],
      sandboxFlag({ enabled: true, servers: { web: { allowedDomains: ["localhost"] } } }),
    );
    expect(contentOf(run, 0)).toContain("200 PAGE-FROM-HOST");
    expect(contentOf(run, 1)).toContain("the sandbox refused 127.0.0.1");
    expect(contentOf(run, 2)).not.toContain("PAGE-FROM-HOST");
    expect(resultsOf(run, 2)[0]?.is_error).toBe(true);
  });

  test("a sandboxed server that cannot start is one line and skipped; the run goes on", async () => {
    const p = place();
    mcpJson(p.dir, { gone: { command: "no-such-command-for-sandbox", args: [] }, web: { command: BUN, args: [FETCH_SERVER] } });
    const run = await runPrint(p, [], sandboxFlag({ enabled: true }));
    expect([run.code, run.stdout]).toEqual([0, "done\n"]);
    expect(run.stderr.split("\n").filter((l) => l.includes('"gone"'))).toHaveLength(1);
    expect(run.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("mcp__web__fetch_url");
  });

  test("the home's sandbox.mcpServers does not count in -p: its server runs as it is", async () => {
    const p = place();
    mcpJson(p.dir, { web: { command: BUN, args: [FETCH_SERVER] } });
    userSettings(p, { sandbox: { mcpServers: { enabled: true } } });
    const run = await runPrint(p, [reply(toolUse("mcp__web__fetch_url", { url: `http://127.0.0.1:${page.port}/` }))]);
    expect(run.code).toBe(0);
    expect(contentOf(run, 0)).toContain("200 PAGE-FROM-HOST");
  });

  test("a subagent's inline server runs in the same sandbox: it may not write outside the project and its state folder", async () => {
    const p = place();
    const outside = join(tempDir("agent-outside-"), "escaped.txt");
    const state = join(p.config, "mcp-sandbox", "own");
    const script = `echo x > ${outside}; echo "outside=$?" > ${state}/note.txt; exec ${BUN} ${FETCH_SERVER}`;
    const agents = JSON.stringify({ worker: { description: "d", prompt: "p", mcpServers: [{ own: { command: "sh", args: ["-c", script] } }] } });
    const run = await runPrint(
      p,
      [reply(toolUse("Agent", { description: "work", prompt: "work", subagent_type: "worker" })), reply(text("worker done"))],
      [...sandboxFlag({ enabled: true }), "--agents", agents],
    );
    expect(run.code).toBe(0);
    expect(existsSync(outside)).toBe(false);
    expect(readFileSync(join(state, "note.txt"), "utf8")).toBe("outside=2\n");
  });
});
