/**
 * Large tool results kept whole, through the real program: a 5 MB MCP result and a 5 MB Bash
 * output are written every byte to a 0600 file, and the model gets the head, the tail and the
 * file's path with how to read it; without session persistence the files go with the run.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { fixtureServer } from "../../support/run.ts";
import { project, stopProjects, toolResult } from "../../support/mcp.ts";

afterEach(stopProjects);

const FIVE_MB = 5 * 1024 * 1024;
const savedPath = (content: string) => /saved in (\S+?):/.exec(content)?.[1];

describe("a result over the limit", () => {
  test("5 MB MCP result: the file holds every byte; the model gets head, tail, path and how to read it", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__big", { bytes: FIVE_MB })), reply(text("done"))]);
    const r = await p.run("big", { env: { MAX_MCP_OUTPUT_TOKENS: "1000" } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const content: string = toolResult(p.model.requests[1]!).content;
    expect(content).toStartWith(`${"x".repeat(4000)}\n\n[Output truncated`);
    expect(content).toContain("use Read with offset and limit, or Grep with that path");
    expect(content).toEndWith(`\n\n${"x".repeat(1000)}`);
    const path = savedPath(content)!;
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(path).size).toBe(FIVE_MB);
    expect(readFileSync(path, "utf8")).toBe("x".repeat(FIVE_MB));
  });

  test("5 MB of Bash output: every byte in the file, head and tail to the model", async () => {
    const command = "echo START; yes | head -c 5242880; echo END";
    const p = project(undefined, [reply(toolUse("Bash", { command })), reply(text("done"))]);
    const r = await p.run("big");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const content: string = toolResult(p.model.requests[1]!).content;
    expect(content).toStartWith("START\ny\ny\n");
    expect(content).toEndWith("y\ny\nEND");
    expect(content).toContain("characters of output omitted] ...\n[Whole output (5242890 bytes) saved in ");
    const path = savedPath(content)!;
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const saved = readFileSync(path, "utf8");
    expect(saved.length).toBe(5_242_890);
    expect(saved).toStartWith("START\ny\n");
    expect(saved).toEndWith("y\nEND\n");
  });

  test("--no-session-persistence: the files are removed when the run ends", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__big", { bytes: 200_000 })), reply(text("done"))]);
    const r = await p.run("big", { args: ["--no-session-persistence"] });
    expect(r.code).toBe(0);
    const path = savedPath(toolResult(p.model.requests[1]!).content)!;
    expect(path).toBeString();
    expect(existsSync(path)).toBe(false);
  });

  test("under the limit: no file, the result as it was", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__big", { bytes: 3999 })), reply(text("done"))]);
    expect((await p.run("big", { env: { MAX_MCP_OUTPUT_TOKENS: "1000" } })).code).toBe(0);
    expect(toolResult(p.model.requests[1]!).content).toBe("x".repeat(3999));
  });
});
