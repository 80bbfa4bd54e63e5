/**
 * WebFetch through the real program, a scripted model and a web server of ours on 127.0.0.1:
 * when -p offers it (a flag, the environment, a project rule; never a rule in the home), the page
 * as Markdown in a separate tool-less request with the prompt, redirects (same host followed, another
 * host returned), the guard against server-side request forgery (loopback, private and metadata
 * addresses, every spelling, a name that resolves there), and each bad input as one error result
 * while the run goes on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { fixtureServer, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { startWebPages, type WebPages } from "../../support/web-pages.ts";
import { place, projectSettings, trust, writeJson } from "./settings-support.ts";

let web: WebPages;
beforeAll(() => {
  web = startWebPages();
});
afterAll(() => web.stop());

const ALLOW_LOCAL = ["--allowedTools", "WebFetch(domain:127.0.0.1)"];
const SIDE_ANSWER = "The page says hello.";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  model: ModelServer;
  /** The tool_result the model got for its WebFetch call. */
  result: { content: string; is_error?: boolean };
}

/** One -p run whose model calls WebFetch once with `input`; `side` adds the small model's answer to the script. */
async function fetchOnce(
  input: Record<string, unknown>,
  opts: { args?: string[]; env?: Record<string, string>; side?: boolean; cwd?: string } = {},
): Promise<Ran> {
  const script: Step[] = [reply(toolUse("WebFetch", { prompt: "what does it say?", ...input }))];
  if (opts.side) script.push(reply(text(SIDE_ANSWER)));
  script.push(reply(text("done")));
  const model = startModelServer(script);
  try {
    const r = await runAgent(["-p", "read the page", ...(opts.args ?? ALLOW_LOCAL)], {
      cwd: opts.cwd ?? tempDir(),
      model: model.url,
      env: opts.env,
      timeoutMs: 60_000,
    });
    const last = model.requests.at(-1)!.body.messages.at(-1);
    const block = last.content.find((b: { type: string }) => b.type === "tool_result");
    return { ...r, model, result: { content: String(block?.content), is_error: block?.is_error } };
  } finally {
    model.stop();
  }
}

const toolNames = (m: ModelServer) => m.requests[0]!.body.tools.map((t: { name: string }) => t.name);

describe("WebFetch in -p is offered only when asked", () => {
  test("not by default; by --allowedTools, AGENT_WEB_TOOLS=1 or a project rule; never by a rule in the home", async () => {
    const run = async (args: string[], env: Record<string, string> = {}, cwd = tempDir()) => {
      const model = startModelServer([reply(text("ok"))]);
      try {
        await runAgent(["-p", "hi", ...args], { cwd, model: model.url, env });
        return toolNames(model);
      } finally {
        model.stop();
      }
    };
    expect(await run([])).not.toContain("WebFetch");
    expect(await run(["--allowedTools", "WebFetch"])).toContain("WebFetch");
    expect(await run([], { AGENT_WEB_TOOLS: "1" })).toContain("WebFetch");
    // A trusted project's allow rule, or any project's ask rule (ask rules apply untrusted too).
    const trusted = place();
    projectSettings(trusted, { permissions: { allow: ["WebFetch(domain:example.com)"] } });
    trust(trusted);
    expect(await run([], { CLAUDE_CONFIG_DIR: trusted.config }, trusted.dir)).toContain("WebFetch");
    const asking = tempDir();
    writeJson(join(asking, ".claude", "settings.json"), { permissions: { ask: ["WebFetch"] } });
    expect(await run([], {}, asking)).toContain("WebFetch");
    const home = tempDir("agent-config-");
    writeJson(join(home, "settings.json"), { permissions: { allow: ["WebFetch", "WebFetch(domain:example.com)"] } });
    expect(await run([], { CLAUDE_CONFIG_DIR: home })).not.toContain("WebFetch");
    expect(await run(["--allowedTools", "WebFetch", "--disallowedTools", "WebFetch"])).not.toContain("WebFetch");
  });

  test("with tool search on, WebFetch and WebSearch are deferred with the MCP tools, and a search loads them", async () => {
    const cwd = tempDir();
    writeMcpConfig(cwd, { fx: fixtureServer() });
    const model = startModelServer([reply(toolUse("ToolSearch", { query: "select:WebFetch" })), reply(text("ok"))]);
    try {
      await runAgent(["-p", "hi"], { cwd, model: model.url, env: { AGENT_WEB_TOOLS: "1", ENABLE_TOOL_SEARCH: "true" } });
      expect(toolNames(model)).toEqual(["Read", "Write", "Edit", "Bash", "Glob", "Grep", "ToolSearch"]);
      const search = model.requests[0]!.body.tools.find((t: { name: string }) => t.name === "ToolSearch");
      expect(search.description).toContain("\n- built-in: WebFetch, WebSearch\n");
      expect(model.requests[1]!.body.tools.map((t: { name: string }) => t.name)).toContain("WebFetch");
    } finally {
      model.stop();
    }
  });

  test("its schema is Claude Code's: url, prompt, offset", async () => {
    const r = await fetchOnce({ url: web.url("/page") }, { side: true });
    const tool = r.model.requests[0]!.body.tools.find((t: { name: string }) => t.name === "WebFetch");
    expect(Object.keys(tool.input_schema.properties)).toEqual(["url", "prompt", "offset"]);
    expect(tool.input_schema.required).toEqual(["url", "prompt"]);
  });
});

describe("WebFetch reads a page", () => {
  test("the small model gets the page as Markdown and the prompt, without tools; its answer is the result", async () => {
    const r = await fetchOnce({ url: web.url("/page") }, { side: true });
    expect(r.code).toBe(0);
    const side = r.model.requests[1]!.body;
    expect(side.tools).toBeUndefined();
    const asked = side.messages[0].content[0].text as string;
    expect(asked).toContain("# Hello Head");
    expect(asked).toContain("**bold** and [link](/x)");
    expect(asked).toContain("-   one");
    expect(asked).toContain("what does it say?");
    expect(asked).not.toContain("no scripts");
    expect(asked).not.toContain("color:red");
    expect(r.result).toEqual({ content: SIDE_ANSWER, is_error: undefined });
  });

  test("JSON passes through as it is", async () => {
    const r = await fetchOnce({ url: web.url("/json") }, { side: true });
    expect(r.model.requests[1]!.body.messages[0].content[0].text).toContain('{"answer":42}');
  });

  test("a long page: 100,000 characters from offset, and a note saying which offset reads on", async () => {
    const first = await fetchOnce({ url: web.url("/long") }, { side: true });
    expect(first.result.content).toContain("250000 characters long");
    expect(first.result.content).toContain("offset: 100000");
    const second = await fetchOnce({ url: web.url("/long"), offset: 200_000 }, { side: true });
    const asked = second.model.requests[1]!.body.messages[0].content[0].text as string;
    expect(asked).toContain("abcdefghij".repeat(5_000));
    expect(asked).not.toContain("abcdefghij".repeat(5_001));
    expect(second.result.content).toContain("characters 200000 to 250000");
  });

  test("a same-host redirect is followed", async () => {
    const r = await fetchOnce({ url: web.url("/same") }, { side: true });
    expect(r.result.content).toBe(SIDE_ANSWER);
  });

  test("a redirect to another host is returned with the new URL, not followed", async () => {
    const before = web.seen.length;
    const r = await fetchOnce({ url: web.url("/cross") });
    expect(r.result.is_error).toBeUndefined();
    expect(r.result.content).toContain(`http://localhost:${web.port}/page`);
    expect(r.result.content).toContain("302");
    expect(web.seen.slice(before).map((s) => s.path)).toEqual(["/cross"]);
  });
});

describe("the guard against server-side request forgery", () => {
  const refused = async (url: string, env: Record<string, string> = {}, args: string[] = ["--allowedTools", "WebFetch"]) => {
    const before = web.seen.length;
    const r = await fetchOnce({ url }, { args, env });
    expect(r.code).toBe(0);
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain("refused");
    // Nothing reached the server.
    expect(web.seen.length).toBe(before);
    return r.result.content;
  };

  test("loopback needs an allow rule naming the host, in every spelling", async () => {
    expect(await refused(web.url("/page"))).toContain("refused to fetch 127.0.0.1: it is a loopback or private-network address. Without a person to ask");
    await refused(`http://2130706433:${web.port}/page`);
    await refused(`http://0x7f.0.0.1:${web.port}/page`);
    await refused(`http://[::ffff:127.0.0.1]:${web.port}/page`);
    await refused(`http://localhost:${web.port}/page`);
  });

  test("a name that resolves to the metadata address is refused; bare WebFetch in --allowedTools names no host", async () => {
    const content = await refused(`http://metadata.test:${web.port}/page`, { WEBFETCH_RESOLVE: "metadata.test=169.254.169.254" });
    expect(content).toContain("cloud-metadata");
    await refused(`http://169.254.169.254/latest/meta-data/`);
  });

  test("a name resolving to loopback, allowed by name: the connection goes to the checked address", async () => {
    const before = web.seen.length;
    const r = await fetchOnce(
      { url: `http://site.test:${web.port}/page` },
      { args: ["--allowedTools", "WebFetch(domain:site.test)"], env: { WEBFETCH_RESOLVE: "site.test=127.0.0.1" }, side: true },
    );
    expect(r.result.content).toBe(SIDE_ANSWER);
    expect(web.seen.slice(before)).toEqual([{ path: "/page", host: `site.test:${web.port}` }]);
  });

  test("with --permission-mode default, --allowedTools WebFetch(domain:…) lets calls to that host run, and only those", async () => {
    const ok = await fetchOnce({ url: web.url("/page") }, { args: [...ALLOW_LOCAL, "--permission-mode", "default"], side: true });
    expect(ok.result.content).toBe(SIDE_ANSWER);
    const other = await fetchOnce({ url: web.url("/page") }, { args: ["--allowedTools", "WebFetch(domain:docs.test)", "--permission-mode", "default"] });
    expect(other.result.is_error).toBe(true);
    expect(other.result.content).toContain("was not granted");
  });

  test("a project deny rule for the domain refuses the call", async () => {
    const cwd = tempDir();
    writeJson(join(cwd, ".claude", "settings.json"), { permissions: { deny: ["WebFetch(domain:127.0.0.1)"] } });
    const before = web.seen.length;
    const r = await fetchOnce({ url: web.url("/page") }, { cwd });
    expect(r.result.is_error).toBe(true);
    expect(web.seen.length).toBe(before);
  });
});

describe("bad input is one error result, and the run goes on", () => {
  test.each([
    ["a URL that is not http(s)", "ftp://127.0.0.1/x", "only http and https"],
    ["a DNS failure", "http://no-such-host.invalid/", "cannot resolve"],
    ["a 20 MB page", "/huge", "larger than 10 MB"],
    ["a page that never ends", "/endless", "larger than 10 MB"],
    ["a gzip bomb", "/bomb", "once decompressed"],
    ["a redirect loop", "/loop", "redirects"],
    ["a binary type", "/binary", "application/pdf"],
    ["an HTTP error", "/missing", "HTTP 404"],
  ])("%s", async (_what, target, words) => {
    const url = target.startsWith("/") ? web.url(target) : target;
    const r = await fetchOnce({ url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain(words);
  });

  test("a refused connection", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const r = await fetchOnce({ url: `http://127.0.0.1:${port}/` });
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain("ECONNREFUSED");
  });

  test("a server that never answers ends at the timeout", async () => {
    const r = await fetchOnce({ url: web.url("/silent") }, { env: { WEBFETCH_TIMEOUT_MS: "500" } });
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain("no complete answer within");
  });
});
