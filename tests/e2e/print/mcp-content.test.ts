/**
 * Content from MCP servers that the Messages API would refuse never reaches it, through the whole
 * agent: empty text blocks are dropped, a prompt with nothing in it is an input error, and images
 * over the API's 5 MiB base64 limit are described instead of sent (prompts, resources, sampling).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PNG_BASE64 } from "../../../fixtures/servers/fixture-catalog.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { BUN, fixtureServer } from "../../support/run.ts";
import { lines, project, stopProjects, toolResult, userBlocks } from "../../support/mcp.ts";

afterEach(stopProjects);

const CANNED_SERVER = join(import.meta.dir, "../../../fixtures/servers/canned-server.ts");
/** 5 MiB + 4 characters of base64: over the API's limit, though it decodes to under 4 MiB. */
const OVERSIZED_BASE64 = "A".repeat(5 * 1024 * 1024 + 4);
const png = { type: "image", data: PNG_BASE64, mimeType: "image/png" };
const user = (content: unknown) => ({ role: "user", content });

/** A project whose server "c" serves exactly these prompts and resources; the model answers "ok". */
function canned(content: { prompts?: Record<string, unknown[]>; resources?: Record<string, unknown[]> }) {
  return project(
    ({ dir }) => {
      const file = join(dir, "canned.json");
      writeFileSync(file, JSON.stringify(content));
      return { c: { command: BUN, args: [CANNED_SERVER, file] } };
    },
    [reply(text("ok"))],
  );
}

describe("prompts", () => {
  test("an image-only prompt is a user message of just the image: no empty text block", async () => {
    const p = canned({ prompts: { picture: [user(png)] } });
    const r = await p.run("/mcp__c__picture");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(userBlocks(p.model.requests[0]!)).toEqual([{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } }]);
  });

  test("empty text messages are dropped, the others kept in order", async () => {
    const p = canned({ prompts: { mixed: [user({ type: "text", text: "" }), user({ type: "text", text: "look:" }), user(png)] } });
    expect((await p.run("/mcp__c__mixed")).code).toBe(0);
    expect(userBlocks(p.model.requests[0]!).map((b) => (b.type === "text" ? b.text : b.type))).toEqual(["look:", "image"]);
  });

  test("a prompt with no content at all: one line, exit 1, no model call", async () => {
    const p = canned({ prompts: { blank: [user({ type: "text", text: "" })], none: [] } });
    for (const name of ["blank", "none"]) {
      const r = await p.run(`/mcp__c__${name}`);
      expect(r.code).toBe(1);
      expect(lines(r.stderr)).toEqual([`error: /mcp__c__${name}: prompt returned no content`]);
    }
    expect(p.model.requests).toHaveLength(0);
  });

  test("an image over the 5 MiB base64 limit is described, not sent", async () => {
    const p = canned({ prompts: { huge: [user({ type: "image", data: OVERSIZED_BASE64, mimeType: "image/png" })] } });
    expect((await p.run("/mcp__c__huge")).code).toBe(0);
    const blocks = userBlocks(p.model.requests[0]!);
    expect(blocks).toHaveLength(1);
    expect(blocks[0].type).toBe("text");
    expect(blocks[0].text).toContain(`too large to send: ${OVERSIZED_BASE64.length} characters of base64`);
  });
});

describe("resources", () => {
  test("@c:<uri> of an image over the limit: an attachment describing it, no image block", async () => {
    const p = canned({ resources: { "canned://huge.png": [{ uri: "canned://huge.png", mimeType: "image/png", blob: OVERSIZED_BASE64 }] } });
    expect((await p.run("see @c:canned://huge.png")).code).toBe(0);
    const blocks = userBlocks(p.model.requests[0]!);
    expect(blocks.map((b) => b.type)).toEqual(["text", "text"]);
    expect(blocks[1].text).toStartWith('<attachment source="c:canned://huge.png">\n[image: image/png, ');
    expect(blocks[1].text).toContain("too large to send");
  });

  test("an empty text resource is attached as empty, never as an empty block", async () => {
    const p = canned({ resources: { "canned://empty": [{ uri: "canned://empty", text: "" }] } });
    expect((await p.run("@c:canned://empty")).code).toBe(0);
    expect(userBlocks(p.model.requests[0]!)[1]).toEqual({ type: "text", text: '<attachment source="c:canned://empty">\n(empty resource)\n</attachment>' });
  });
});

test("sampling: a request of only empty text is refused without a model call; the server gets the error", async () => {
  const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__sample", { prompt: "" })), reply(text("done"))]);
  const r = await p.run("sample nothing");
  expect([r.code, r.stdout]).toEqual([0, "done\n"]);
  // The first turn and the turn after the tool result: no third request for the sampling.
  expect(p.model.requests).toHaveLength(2);
  const result = toolResult(p.model.requests[1]!);
  expect(result.is_error).toBe(true);
  expect(JSON.stringify(result.content)).toContain("sampling/createMessage has no content to send to the model");
});
