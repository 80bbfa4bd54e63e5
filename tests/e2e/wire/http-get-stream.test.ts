/**
 * The GET stream through the real program (MCP 2025-11-25, basic/transports#listening-for-messages-from-the-server):
 * after `initialized` the client opens it; a server request on it is answered by a new POST, a
 * `notifications/tools/list_changed` on it makes the next model request carry the new tool, and a
 * GET stream that drops is reopened without touching the session.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { HttpFixture, LoggedRequest } from "../../../fixtures/servers/http-server.ts";
import { httpFixture, project, stopProjects, toolNames, toolResult } from "../../support/mcp.ts";
import { reply, text, toolUse } from "../../support/model-server.ts";

afterEach(stopProjects);
const fixture = httpFixture;

const gets = (f: HttpFixture) => f.requests.filter((r) => r.method === "GET");
/** The POST that carried our answer to the fixture's request `id`, parsed. */
function answerTo(f: HttpFixture, id: string): { request: LoggedRequest; message: any } | undefined {
  for (const request of f.requests) {
    if (request.method !== "POST") continue;
    const message = JSON.parse(request.body);
    if (message.id === id && message.method === undefined) return { request, message };
  }
  return undefined;
}

describe("the GET stream", () => {
  test("a server request on it (roots/list) is answered by a POST carrying the session", async () => {
    // In JSON mode the fixture has no POST stream to speak on: its requests go on the GET stream.
    const f = fixture();
    const p = project({ remote: { type: "http", url: f.url } }, [reply(toolUse("mcp__remote__roots", {})), reply(text("done"))]);
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(toolResult(p.model.requests[1]!).content).toContain(`"uri":"file://${p.dir}"`);
    expect(gets(f)).toHaveLength(1);
    const answer = answerTo(f, "fixture-1");
    expect(answer?.message.result.roots).toEqual([expect.objectContaining({ uri: `file://${p.dir}` })]);
    expect(answer?.request.headers["mcp-session-id"]).toBe(gets(f)[0]!.headers["mcp-session-id"]!);
    expect(answer?.request.headers["mcp-protocol-version"]).toBe("2025-11-25");
  });

  test("notifications/tools/list_changed on it: the tools are listed again and the model's next request offers the new one", async () => {
    const f = fixture("--get-list-changed");
    const p = project({ remote: { type: "http", url: f.url } }, [
      reply(toolUse("mcp__remote__echo", { text: "first" })),
      reply(toolUse("mcp__remote__late_tool", {})),
      reply(text("done")),
    ]);
    const r = await p.run("go");
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
    expect(toolNames(p.model.requests[0]!)).not.toContain("mcp__remote__late_tool");
    expect(toolNames(p.model.requests[1]!)).toContain("mcp__remote__late_tool");
    expect(toolResult(p.model.requests[1]!).content).toBe("first");
    expect(toolResult(p.model.requests[2]!).content).toBe("late tool ran");
    // The ping that followed the notification on the GET stream was answered by a POST.
    expect(answerTo(f, "fixture-1")?.message.result).toEqual({});
    const lists = f.requests.filter((q) => q.method === "POST" && q.body.includes('"tools/list"'));
    expect(lists).toHaveLength(2);
  });

  for (const flags of [["--drop-get"], ["--drop-get", "--prime-get"]]) {
    const resumed = flags.includes("--prime-get");
    test(`one that drops (${resumed ? "after an event id: resumed with Last-Event-ID" : "with no event: opened afresh"}) never ends the session; calls and server requests after it work`, async () => {
      const f = fixture(...flags);
      const reopened = f.seen((q) => q.method === "GET" && gets(f).indexOf(q) === 1);
      const p = project({ remote: { type: "http", url: f.url } }, [
        async () => {
          await reopened;
          return reply(toolUse("mcp__remote__roots", {}));
        },
        reply(toolUse("mcp__remote__echo", { text: "still here" })),
        reply(text("done")),
      ]);
      const r = await p.run("go");
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "done\n", ""]);
      expect(toolResult(p.model.requests[1]!).content).toContain(`"uri":"file://${p.dir}"`);
      expect(toolResult(p.model.requests[2]!).content).toBe("still here");
      const [first, second] = gets(f);
      expect(second!.headers["mcp-session-id"]).toBe(first!.headers["mcp-session-id"]!);
      expect(second!.headers["last-event-id"] ?? "none").toBe(resumed ? "g1:0" : "none");
      // One session from start to end: a single initialize, and it is the one DELETEd.
      expect(f.requests.filter((q) => q.body.includes('"initialize"'))).toHaveLength(1);
      expect(f.requests.find((q) => q.method === "DELETE")?.headers["mcp-session-id"]).toBe(first!.headers["mcp-session-id"]!);
    });
  }
});
