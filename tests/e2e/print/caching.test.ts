/**
 * Prompt caching (Messages API `cache_control`) through the real program: where the breakpoints
 * go, a prefix that stays byte-identical from turn to turn, and --no-cache.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, text, toolUse, type RecordedRequest } from "../../support/model-server.ts";
import { fixtureServer } from "../../support/run.ts";
import { project, received, stopProjects, type ProjectBasics } from "../../support/mcp.ts";

afterEach(stopProjects);

const EPHEMERAL = { type: "ephemeral" };

/** Every `cache_control` value in a request body, with the path where it sits. */
function breakpoints(body: any): { path: string; value: unknown }[] {
  const found: { path: string; value: unknown }[] = [];
  const walk = (v: any, path: string) => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`);
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === "cache_control") found.push({ path, value: x });
        else walk(x, `${path}.${k}`);
      }
    }
  };
  walk(body, "");
  return found;
}

/** The request without its breakpoints, for comparing what the cache keys on. */
function stripped(req: RecordedRequest): any {
  return JSON.parse(JSON.stringify(req.body, (k, v) => (k === "cache_control" ? undefined : v)));
}

describe("breakpoints", () => {
  test("on the last block of the newest message and of the one before it; tools and system untouched", async () => {
    const p = project({ fx: fixtureServer() }, [reply(text("looking"), toolUse("mcp__fx__echo", { text: "hi" })), reply(text("done"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const [first, second] = p.model.requests.map((q) => q.body);
    // One message: one breakpoint, the prompt's only block.
    expect(breakpoints(first)).toEqual([{ path: ".messages[0].content[0]", value: EPHEMERAL }]);
    // Three messages: the assistant's last block (its tool_use) and the tool_result message's last block.
    expect(breakpoints(second)).toEqual([
      { path: ".messages[1].content[1]", value: EPHEMERAL },
      { path: ".messages[2].content[0]", value: EPHEMERAL },
    ]);
    expect(second.messages[1].content[1].type).toBe("tool_use");
    expect(second.messages[2].content[0].type).toBe("tool_result");
    expect(typeof second.system).toBe("string");
    expect(second.tools.some((t: any) => "cache_control" in t)).toBe(false);
  });

  test("--no-cache and DISABLE_PROMPT_CACHING=1 send none", async () => {
    for (const opts of [{ args: ["--no-cache"] }, { env: { DISABLE_PROMPT_CACHING: "1" } }]) {
      const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__sample", { prompt: "hello" })), reply(text("s")), reply(text("done"))]);
      const r = await p.run("go", opts);
      expect([r.code, r.stdout]).toEqual([0, "done\n"]);
      expect(p.model.requests).toHaveLength(3);
      for (const q of p.model.requests) expect(q.raw).not.toContain("cache_control");
    }
  });
});

describe("a byte-stable prefix", () => {
  const log = (b: ProjectBasics) => join(b.dir, "fx.log");

  test("five turns, two servers, a list_changed that changes nothing and a sampling request", async () => {
    const p = project(
      (b) => ({
        fx: fixtureServer("--list-changed-no-change", "--log-file", log(b)),
        other: fixtureServer(),
      }),
      [
        reply(toolUse("mcp__fx__echo", { text: "one" })),
        reply(toolUse("mcp__other__sample", { prompt: "a colour" })),
        reply(text("teal")), // the sampling request
        reply(toolUse("Glob", { pattern: "*" })),
        reply(toolUse("mcp__fx__echo", { text: "two" })),
        reply(text("done")),
      ],
    );
    const r = await p.run("go");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    // The server did announce a change, twice, and was listed again each time.
    expect(received(log(p)).filter((m) => m.method === "tools/list").length).toBeGreaterThanOrEqual(2);
    const sampling = p.model.requests[2]!;
    expect(sampling.body.tools).toBeUndefined();
    expect(breakpoints(sampling.body)).toEqual([{ path: ".messages[0].content[0]", value: EPHEMERAL }]);
    const turns = p.model.requests.filter((q) => q !== sampling);
    expect(turns).toHaveLength(5);
    for (let i = 1; i < turns.length; i++) {
      const [before, after] = [stripped(turns[i - 1]!), stripped(turns[i]!)];
      // Tools and system byte for byte, and every earlier message as it was sent.
      expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
      expect(JSON.stringify(after.system)).toBe(JSON.stringify(before.system));
      expect(JSON.stringify(after.messages.slice(0, before.messages.length))).toBe(JSON.stringify(before.messages));
      expect(breakpoints(turns[i]!.body)).toHaveLength(2);
    }
  });
});
