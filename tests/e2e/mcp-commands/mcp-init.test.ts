/**
 * The grader's process mode: `mcp-init FIXTURE` prints one exact line of JSON.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, tempDir } from "../../support/run.ts";

const expected = (id: number, capabilities: unknown) =>
  `{"request":{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{},"sampling":{}},"clientInfo":{"name":"claude-code","version":"1.0.0"}}},"capabilities":${JSON.stringify(capabilities)}}\n`;

const fixture = (id: number, serverResponse: unknown) => JSON.stringify({ id, serverResponse });
const caps = { tools: { listChanged: true }, prompts: {} };

describe("mcp-init", () => {
  test("from a file", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "case.json"), fixture(7, { jsonrpc: "2.0", id: 7, result: { protocolVersion: "2025-11-25", capabilities: caps } }));
    const r = await runAgent(["mcp-init", "case.json"], { cwd: dir });
    expect(r.stdout).toBe(expected(7, caps));
    expect(r.code).toBe(0);
  });

  test("from a folder holding one fixture", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "case"));
    writeFileSync(join(dir, "case", "fixture.json"), fixture(3, null));
    const r = await runAgent(["mcp-init", join(dir, "case")], { cwd: tempDir() });
    expect(r.stdout).toBe(expected(3, null));
  });

  test("from stdin; an error response has no capabilities", async () => {
    const r = await runAgent(["mcp-init"], { cwd: tempDir(), stdin: fixture(1, { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "no" } }) });
    expect(r.stdout).toBe(expected(1, null));
  });

  test("--help prints the usage", async () => {
    const r = await runAgent(["mcp-init", "--help"], { cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("usage: mcp-init [FIXTURE]");
  });

  test("a missing fixture: stderr, exit 2, nothing on stdout", async () => {
    const r = await runAgent(["mcp-init", "nope.json"], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("nope.json");
  });

  test("an empty stdin is named as empty, not as bad JSON", async () => {
    const r = await runAgent(["mcp-init"], { cwd: tempDir(), stdin: "" });
    expect(r).toMatchObject({ code: 2, stdout: "", stderr: "mcp-init: fixture <stdin> is empty\n" });
  });
});
