/**
 * The built-in tools through the whole agent: a scripted model asks for tool calls, the real
 * program runs them on a temp dir, and we check the files and the tool_result blocks it sent back.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";
import { isRunning, pidIn } from "../../unit/tools/support.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

interface ToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: unknown;
  is_error?: boolean;
}

/**
 * Runs the agent in `dir` with one tool call per model turn (`calls`), then a final "done",
 * and returns the tool_result the agent sent after each call.
 */
async function runCalls(dir: string, ...calls: [string, Record<string, unknown>][]): Promise<ToolResult[]> {
  const script: Step[] = calls.map(([name, input]) => reply(toolUse(name, input)));
  server = startModelServer([...script, reply(text("done"))]);
  const r = await runAgent(["-p", "use the tools"], { cwd: dir, model: server.url });
  expect(r.stdout).toBe("done\n");
  expect(r.code).toBe(0);
  expect(server.requests).toHaveLength(calls.length + 1);
  return calls.map((_, i) => {
    const messages = server!.requests[i + 1]!.body.messages;
    const results = messages.at(-1).content.filter((b: any) => b.type === "tool_result");
    expect(results).toHaveLength(1);
    return results[0] as ToolResult;
  });
}

describe("Read, Write, Edit", () => {
  test("Read then answer: the numbered lines go back as the tool_result", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "hello\nworld\n");
    const [result] = await runCalls(dir, ["Read", { file_path: "a.txt" }]);
    const request = server!.requests[1]!.body;
    expect(request.messages.at(-2).content.find((b: any) => b.type === "tool_use").id).toBe(result!.tool_use_id);
    expect(result!.content).toBe("     1\thello\n     2\tworld");
    expect(result!.is_error).toBeUndefined();
  });

  test("Write creates the file with its folders", async () => {
    const dir = tempDir();
    const [result] = await runCalls(dir, ["Write", { file_path: "out/new.txt", content: "fresh\n" }]);
    expect(readFileSync(join(dir, "out/new.txt"), "utf8")).toBe("fresh\n");
    expect(result!.content).toContain(`Created ${join(dir, "out/new.txt")}`);
  });

  test("Edit: a replacement, then not found and not unique as is_error results", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "c.ts"), "let x = 1;\nfoo(); foo();\n");
    const [ok, missing, ambiguous] = await runCalls(
      dir,
      ["Edit", { file_path: "c.ts", old_string: "x = 1", new_string: "x = 2" }],
      ["Edit", { file_path: "c.ts", old_string: "y = 9", new_string: "y = 0" }],
      ["Edit", { file_path: "c.ts", old_string: "foo()", new_string: "bar()" }],
    );
    expect(ok!.is_error).toBeUndefined();
    expect(missing).toMatchObject({ is_error: true, content: expect.stringContaining("not found") });
    expect(ambiguous).toMatchObject({ is_error: true, content: expect.stringContaining("matches 2 times") });
    expect(readFileSync(join(dir, "c.ts"), "utf8")).toBe("let x = 2;\nfoo(); foo();\n");
  });

  test("Edit keeps a CRLF file CRLF, byte for byte", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "w.txt"), "a\r\nb\r\nc\r\n");
    await runCalls(dir, ["Edit", { file_path: "w.txt", old_string: "a\nb", new_string: "A\nB\nB2" }]);
    expect(readFileSync(join(dir, "w.txt")).equals(Buffer.from("A\r\nB\r\nB2\r\nc\r\n"))).toBe(true);
  });

  test("Edit and Write keep an executable script executable", async () => {
    const dir = tempDir();
    const path = join(dir, "run.sh");
    writeFileSync(path, "#!/bin/sh\necho one\n");
    chmodSync(path, 0o755);
    await runCalls(
      dir,
      ["Edit", { file_path: "run.sh", old_string: "one", new_string: "two" }],
      ["Write", { file_path: "run.sh", content: "#!/bin/sh\necho three\n" }],
    );
    expect(statSync(path).mode & 0o111).toBe(0o111);
    expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho three\n");
  });

  test("Edit with an empty old_string on a file with content is refused, file byte-identical", async () => {
    const dir = tempDir();
    const original = Buffer.from("keep\r\nme “as is”\n");
    writeFileSync(join(dir, "k.txt"), original);
    const [result] = await runCalls(dir, ["Edit", { file_path: "k.txt", old_string: "", new_string: "replaced" }]);
    expect(result).toMatchObject({ is_error: true, content: expect.stringContaining("already has content") });
    expect(readFileSync(join(dir, "k.txt")).equals(original)).toBe(true);
  });

  test("Edit on a Latin-1 file keeps every other byte", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "l1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x3a, 0x20, 0x31, 0x0a]));
    const [result] = await runCalls(dir, ["Edit", { file_path: "l1.txt", old_string: "café: 1", new_string: "café: 2" }]);
    expect(result!.is_error).toBeUndefined();
    expect(readFileSync(join(dir, "l1.txt")).equals(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x3a, 0x20, 0x32, 0x0a]))).toBe(true);
  });
});

describe("Bash", () => {
  test("a command deletes a file; a failing command is an is_error result with its exit code", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "doomed.txt"), "x");
    const [removed, failed] = await runCalls(dir, ["Bash", { command: "rm doomed.txt && echo removed" }], ["Bash", { command: "echo oops >&2; exit 4" }]);
    expect(existsSync(join(dir, "doomed.txt"))).toBe(false);
    expect(removed!.content).toBe("removed");
    expect(failed).toMatchObject({ is_error: true, content: "oops\nExit code 4" });
  });

  test("timeout 500 ms: partial output and a timed-out error", async () => {
    const dir = tempDir();
    const [result] = await runCalls(dir, ["Bash", { command: "echo begun; sleep 30", timeout: 500 }]);
    expect(result).toMatchObject({ is_error: true, content: expect.stringMatching(/^begun\nCommand timed out after 500 ms/) });
  });

  test("a background job does not hold the call, and does not outlive it", async () => {
    const dir = tempDir();
    const [result] = await runCalls(dir, ["Bash", { command: "sleep 100 & echo $! > bg.pid; echo launched" }]);
    expect(result!.content).toBe("launched");
    expect(isRunning(pidIn(join(dir, "bg.pid")))).toBe(false);
  });
});

describe("Glob and Grep", () => {
  test("Glob .github/** finds the workflow; Grep finds the matching file", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, ".github/workflows"), { recursive: true });
    writeFileSync(join(dir, ".github/workflows/ci.yml"), "on: push\n");
    writeFileSync(join(dir, "main.ts"), "export const answer = 42;\n");
    const [globbed, grepped] = await runCalls(dir, ["Glob", { pattern: ".github/**" }], ["Grep", { pattern: "answer", output_mode: "content" }]);
    expect(globbed!.content).toBe(join(dir, ".github/workflows/ci.yml"));
    expect(grepped!.content).toBe(`${join(dir, "main.ts")}:1:export const answer = 42;`);
  });

  test("Grep with a pattern starting with '-' searches for it", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "cmd.sh"), "rm -rf build\nls\n");
    const [result] = await runCalls(dir, ["Grep", { pattern: "-rf", output_mode: "content" }]);
    expect(result!.content).toBe(`${join(dir, "cmd.sh")}:1:rm -rf build`);
  });
});
