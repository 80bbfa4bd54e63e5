/**
 * Agent core hardening: one tool_result for every tool_use whatever happens to the call, and
 * API errors (413, 500 then success). File edges are in hardening-files.test.ts, Bash edges in
 * hardening-bash.test.ts; the items already proven in tools.test.ts and agent.test.ts are not
 * repeated here.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";
import { runTurns, textOf } from "./hardening-support.ts";

describe("tool results", () => {
  test("a reply whose calls all fail still gets exactly one is_error tool_result per tool_use, in order", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "src"));
    const calls = [
      toolUse("Read", { file_path: "src" }),
      toolUse("Edit", { file_path: 5 }),
      toolUse("Read", { file_path: "a.txt", offset: "soon" }),
      toolUse("Bash", { command: "echo waited; sleep 30", timeout: 300 }),
      toolUse("Frobnicate", { x: 1 }),
      toolUse("Grep", { pattern: "([unclosed" }),
    ];
    const { results } = await runTurns(dir, [calls]);
    const [readDir, editTypes, readTypes, timedOut, unknown, badRegex] = results[0]!;
    for (const result of results[0]!) expect(result.is_error).toBe(true);
    expect(textOf(readDir!)).toBe(`${join(dir, "src")} is a directory, not a file; use Glob or Bash (ls) to list it`);
    expect(textOf(editTypes!)).toBe('Invalid input: "file_path" is required and must be a string');
    expect(textOf(readTypes!)).toBe('Invalid input: "offset" must be an integer ≥ 1');
    expect(textOf(timedOut!)).toMatch(/^waited\nCommand timed out after 300 ms/);
    expect(textOf(unknown!)).toBe("No such tool: Frobnicate");
    expect(textOf(badRegex!)).toContain("([unclosed");
  });

  test("the calls of a later turn are answered too, after an earlier turn's failures", async () => {
    const dir = tempDir();
    const { results } = await runTurns(dir, [
      [toolUse("Read", { file_path: "missing.txt" }), toolUse("Write", { file_path: "ok.txt", content: "fine\n" })],
      ["Read", { file_path: "ok.txt" }],
    ]);
    expect(results[0]!.map((r) => r.is_error)).toEqual([true, undefined]);
    expect(textOf(results[0]![0]!)).toBe(`File does not exist: ${join(dir, "missing.txt")}`);
    expect(results[1]![0]).toMatchObject({ content: "     1\tfine" });
  });
});

describe("API errors", () => {
  test("a 413 is one stderr line naming the status, not retried", async () => {
    const server = startModelServer([{ status: 413, error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } }]);
    try {
      const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd().split("\n")).toEqual(["error: API error 413: Request exceeds the maximum allowed number of bytes."]);
      expect(server.requests).toHaveLength(1);
    } finally {
      server.stop();
    }
  });

  test("a 500 is retried, and the retry's answer is the result, also mid tool loop", async () => {
    const dir = tempDir();
    const fail: Step = { status: 500, error: { type: "api_error", message: "Internal server error" } };
    const server = startModelServer([fail, reply(toolUse("Write", { file_path: "w.txt", content: "once\n" })), fail, reply(text("after retry"))]);
    try {
      const r = await runAgent(["-p", "hi"], { cwd: dir, model: server.url });
      expect(r.stdout).toBe("after retry\n");
      expect(r.code).toBe(0);
      expect(server.requests).toHaveLength(4);
      // The retried request is the same request: the tool ran once and its result was sent twice.
      expect(server.requests[3]!.body).toEqual(server.requests[2]!.body);
      expect(await Bun.file(join(dir, "w.txt")).text()).toBe("once\n");
    } finally {
      server.stop();
    }
  });
});
