/**
 * The npm reference server `@modelcontextprotocol/server-everything` (a devDependency, run as
 * `node <bin> stdio`, not through npx) through the whole agent: tools, its requests to us (roots,
 * sampling), tools it registers after the handshake, a prompt with arguments and a static resource.
 * After every run, no process the run started is left.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { reply, text, toolUse, type Step } from "../../support/model-server.ts";
import {
  lines,
  marked,
  npmServer,
  npmServerBin,
  project,
  stopProjects,
  survivors,
  toolNames,
  toolResults,
  userBlocks,
  type Project,
} from "../../support/mcp.ts";

afterEach(stopProjects);

/** A project with the everything server as "everything"; `run` also checks nothing is left after it. */
function everything(script: Step[]) {
  const p = project({ everything: npmServer("everything", ["stdio"]) }, script);
  const run = async (prompt: string, args: string[] = []) => {
    const r = await p.run(prompt, { args });
    expect(await survivors(() => marked(p.marker))).toEqual([]);
    return r;
  };
  return { p, run };
}

const results = (p: Project, i: number) => toolResults(p.model.requests[i]!);

describe("tools", () => {
  test("echo and get-sum go through, and the server process is gone after the run", async () => {
    let live: number[] = [];
    const { p, run } = everything([
      () => {
        live = marked(p.marker);
        return reply(toolUse("mcp__everything__echo", { message: "hi there" }), toolUse("mcp__everything__get-sum", { a: 2, b: 40 }));
      },
      reply(text("done")),
    ]);
    const r = await run("use them");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    // The agent and the server were found while the run was live.
    expect(live.length).toBeGreaterThanOrEqual(2);
    const [echo, sum] = results(p, 1);
    expect(echo).toMatchObject({ content: "Echo: hi there" });
    expect(echo.is_error).toBeUndefined();
    expect(sum.content).toContain("42");
  });

  test("get-tiny-image reaches the model as an image block", async () => {
    const { p, run } = everything([reply(toolUse("mcp__everything__get-tiny-image", {})), reply(text("done"))]);
    expect((await run("image")).code).toBe(0);
    const [result] = results(p, 1);
    expect(result.content.filter((b: any) => b.type === "image")).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: expect.any(String) } },
    ]);
  });

  test("tools it registers after the handshake (roots, sampling) are announced by list_changed and offered", async () => {
    const { p, run } = everything([reply(text("ok"))]);
    const r = await run("hi", ["--debug"]);
    expect(r.code).toBe(0);
    // It registers them once it has seen notifications/initialized, and says so.
    expect(r.stderr).toContain("notifications/tools/list_changed");
    const names = toolNames(p.model.requests[0]!);
    expect(names).toContain("mcp__everything__get-roots-list");
    expect(names).toContain("mcp__everything__trigger-sampling-request");
    expect(names).toContain("mcp__everything__echo");
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});

describe("its requests to us", () => {
  test("get-roots-list shows our working directory as a file:// root", async () => {
    const { p, run } = everything([reply(toolUse("mcp__everything__get-roots-list", {})), reply(text("done"))]);
    expect((await run("roots")).code).toBe(0);
    const [result] = results(p, 1);
    expect(result.content).toContain(`URI: ${pathToFileURL(p.dir).href}`);
  });

  test("trigger-sampling-request is answered by the scripted model, with a stderr note", async () => {
    const { p, run } = everything([
      reply(toolUse("mcp__everything__trigger-sampling-request", { prompt: "name a colour", maxTokens: 20 })),
      reply(text("teal")),
      reply(text("done")),
    ]);
    const r = await run("sample");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const sampling = p.model.requests[1]!.body;
    expect(sampling.system).toBe("You are a helpful test server.");
    expect(sampling.max_tokens).toBe(20);
    expect(sampling.messages[0].content[0].text).toContain("name a colour");
    const [result] = results(p, 2);
    expect(result.content).toContain('"text": "teal"');
    expect(lines(r.stderr)).toContain('MCP server "everything" asked the model for a completion (sampling/createMessage, up to 20 tokens)');
  });
});

describe("prompts and resources", () => {
  test("/mcp__everything__args-prompt Paris France sends the prompt's text", async () => {
    const { p, run } = everything([reply(text("sunny"))]);
    const r = await run("/mcp__everything__args-prompt Paris France");
    expect([r.code, r.stdout]).toEqual([0, "sunny\n"]);
    expect(userBlocks(p.model.requests[0]!)).toEqual([{ type: "text", text: "What's weather in Paris, France?" }]);
  });

  test("a missing required argument of its prompt is a usage line naming the argument, exit 1", async () => {
    const { p, run } = everything([]);
    const r = await run("/mcp__everything__args-prompt");
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["error: usage: /mcp__everything__args-prompt <city> [state]"]);
    expect(p.model.requests).toHaveLength(0);
  });

  test("@everything:demo://resource/static/document/architecture.md attaches the document", async () => {
    const uri = "demo://resource/static/document/architecture.md";
    const doc = readFileSync(join(dirname(npmServerBin("everything")), "docs", "architecture.md"), "utf8");
    const { p, run } = everything([reply(text("read it"))]);
    const r = await run(`summarise @everything:${uri}`);
    expect(r.code).toBe(0);
    const [, attachment] = userBlocks(p.model.requests[0]!);
    expect(attachment.text).toBe(`<attachment source="everything:${uri}">\n${doc}\n</attachment>`);
  });

  test("a text/plain blob resource is attached as its text, not as binary", async () => {
    const uri = "demo://resource/dynamic/blob/1";
    const { p, run } = everything([reply(text("read it"))]);
    expect((await run(`look @everything:${uri}`)).code).toBe(0);
    const [, attachment] = userBlocks(p.model.requests[0]!);
    expect(attachment.text).toMatch(
      /^<attachment source="everything:demo:\/\/resource\/dynamic\/blob\/1">\nResource 1: This is a base64 blob created at .+\n<\/attachment>$/,
    );
  });

  test("get-resource-reference's embedded text/plain blob reaches the model as text", async () => {
    const { p, run } = everything([reply(toolUse("mcp__everything__get-resource-reference", { resourceType: "Blob", resourceId: 2 })), reply(text("done"))]);
    expect((await run("ref")).code).toBe(0);
    const [result] = results(p, 1);
    expect(result.content).toMatch(/\nResource 2: This is a base64 blob created at /);
    expect(result.content).not.toContain("[embedded resource");
  });
});
