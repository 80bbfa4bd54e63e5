/**
 * MCP resources as `@<server>:<uri>` mentions through the whole agent: resources/read → an
 * attachment in the same format as `@file` (MCP 2025-11-25 server/resources).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text } from "../../support/model-server.ts";
import { fixtureServer, tempDir } from "../../support/run.ts";
import { lines, project, received, stopProjects, userBlocks } from "../../support/mcp.ts";

afterEach(stopProjects);

function withFixture(...flags: string[]) {
  const logFile = join(tempDir(), "fx.log");
  const p = project({ fx: fixtureServer("--log-file", logFile, ...flags) }, [reply(text("ok"))]);
  const reads = () =>
    received(logFile)
      .filter((m) => m.method === "resources/read")
      .map((m) => m.params.uri);
  return { p, reads };
}

/** An attachment's text with its source and body cut out: the format alone. */
const shape = (block: { text: string }) => block.text.replace(/source="[^"]*"/, 'source=""').replace(/>\n[\s\S]*\n</, ">\n\n<");

describe("attached like a file", () => {
  test("@fx:fixture://hello: the text in the @file attachment format naming fx:fixture://hello; the token stays", async () => {
    const { p, reads } = withFixture();
    writeFileSync(join(p.dir, "notes.txt"), "file body");
    const prompt = "compare @fx:fixture://hello with @notes.txt";
    const r = await p.run(prompt);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(reads()).toEqual(["fixture://hello"]);
    const [head, resource, file] = userBlocks(p.model.requests[0]!);
    expect(head).toEqual({ type: "text", text: prompt });
    expect(resource).toEqual({ type: "text", text: '<attachment source="fx:fixture://hello">\nhello from fixture\n</attachment>' });
    expect(shape(resource)).toBe(shape(file));
    expect(file.text).toContain('source="notes.txt"');
  });

  test("a binary blob is described by mime type and size, not inlined", async () => {
    const { p } = withFixture();
    expect((await p.run("look @fx:fixture://blob")).code).toBe(0);
    const blocks = userBlocks(p.model.requests[0]!);
    expect(blocks).toHaveLength(2);
    expect(blocks[1].text).toBe(
      '<attachment source="fx:fixture://blob">\n[binary resource fixture://blob, application/octet-stream, 16 bytes, not shown]\n</attachment>',
    );
  });

  test("an image blob is attached as an image block after its attachment line", async () => {
    const { p } = withFixture();
    expect((await p.run("see @fx:fixture://image")).code).toBe(0);
    const blocks = userBlocks(p.model.requests[0]!);
    expect(blocks.map((b) => b.type)).toEqual(["text", "text", "image"]);
    expect(blocks[1].text).toBe('<attachment source="fx:fixture://image">\n(image, image/png, 70 bytes)\n</attachment>');
    expect(blocks[2].source).toMatchObject({ type: "base64", media_type: "image/png" });
  });

  test("trailing punctuation after a mention is not part of the URI", async () => {
    const { p, reads } = withFixture();
    expect((await p.run("what does @fx:fixture://hello, say?")).code).toBe(0);
    expect(reads()).toEqual(["fixture://hello"]);
  });
});

describe("several mentions", () => {
  test("two mentions are read concurrently (the server answers only once both reads are in flight), both attached in order", async () => {
    const { p, reads } = withFixture("--read-barrier", "2");
    // Read one at a time, the first read would wait forever: MCP_TOOL_TIMEOUT turns that into a failure.
    const r = await p.run("@fx:fixture://hello and @fx:fixture://blob", { env: { MCP_TOOL_TIMEOUT: "5000" } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(reads().sort()).toEqual(["fixture://blob", "fixture://hello"]);
    const sources = userBlocks(p.model.requests[0]!)
      .slice(1)
      .map((b) => /source="([^"]+)"/.exec(b.text)?.[1]);
    expect(sources).toEqual(["fx:fixture://hello", "fx:fixture://blob"]);
  });

  test("the same mention twice is read and attached once", async () => {
    const { p, reads } = withFixture();
    expect((await p.run("@fx:fixture://hello twice @fx:fixture://hello")).code).toBe(0);
    expect(reads()).toEqual(["fixture://hello"]);
    expect(userBlocks(p.model.requests[0]!)).toHaveLength(2);
  });
});

describe("left alone or refused", () => {
  test("@nosuch:thing (no such server) and me@example.com stay plain text, nothing read", async () => {
    const { p, reads } = withFixture();
    const prompt = "mail me@example.com about @nosuch:thing";
    const r = await p.run(prompt);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(userBlocks(p.model.requests[0]!)).toEqual([{ type: "text", text: prompt }]);
    expect(reads()).toEqual([]);
  });

  test("a failed read: one stderr line naming the mention, exit 1, no model call", async () => {
    const { p, reads } = withFixture();
    const r = await p.run("read @fx:fixture://missing please");
    expect(r.code).toBe(1);
    expect(reads()).toEqual(["fixture://missing"]);
    const err = lines(r.stderr);
    expect(err).toHaveLength(1);
    expect(err[0]).toStartWith("error: cannot read @fx:fixture://missing: ");
    expect(err[0]).toContain("Resource not found: fixture://missing");
    expect(p.model.requests).toHaveLength(0);
  });

  test("a mention of a server that failed to start: one line naming it, exit 1, no model call", async () => {
    const p = project({ down: fixtureServer("--exit-immediately") }, [reply(text("unused"))]);
    const r = await p.run("@down:fixture://hello");
    expect(r.code).toBe(1);
    expect(lines(r.stderr).at(-1)).toBe('error: cannot read @down:fixture://hello: MCP server "down" is not connected');
    expect(p.model.requests).toHaveLength(0);
  });
});
