/**
 * What the built-in tools remember within one conversation, through the real program and a
 * scripted model: Bash's working directory, and the changed-on-disk rule for Edit and Write.
 * A model step that is a function runs in this process between two tool calls, as a user's
 * editor or another program would, between turns.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

type Call = [string, Record<string, unknown>] | { before: () => void; call: [string, Record<string, unknown>] };

/** Runs one tool call per model turn, each optionally preceded by `before` (an outside change); returns each tool_result. */
async function runCalls(dir: string, ...calls: Call[]): Promise<{ content: any; is_error?: boolean }[]> {
  const script: Step[] = calls.map((c) => {
    const [name, input] = Array.isArray(c) ? c : c.call;
    return () => {
      if (!Array.isArray(c)) c.before();
      return reply(toolUse(name, input));
    };
  });
  server = startModelServer([...script, reply(text("done"))]);
  const r = await runAgent(["-p", "use the tools"], { cwd: dir, model: server.url });
  expect([r.code, r.stdout]).toEqual([0, "done\n"]);
  return calls.map((_, i) => server!.requests[i + 1]!.body.messages.at(-1).content.find((b: any) => b.type === "tool_result"));
}

const CHANGED = "has changed on disk since you last read it";

describe("Edit and Write after the file changed on disk", () => {
  test("Edit is refused after an outside change since the Read, saying what changed; allowed again after a Read", async () => {
    const dir = tempDir();
    const file = join(dir, "a.txt");
    writeFileSync(file, "one\ntwo\n");
    const edit = ["Edit", { file_path: "a.txt", old_string: "two", new_string: "2" }] as [string, Record<string, unknown>];
    const [, refused, , edited] = await runCalls(
      dir,
      ["Read", { file_path: "a.txt" }],
      { before: () => appendFileSync(file, "three\n"), call: edit },
      ["Read", { file_path: "a.txt" }],
      edit,
    );
    expect(refused!.is_error).toBe(true);
    expect(refused!.content).toContain(`${file} ${CHANGED} (modified at `);
    expect(refused!.content).toContain("size 8 → 14 bytes");
    expect(refused!.content).toContain("Read it again");
    expect(edited!.is_error).toBeUndefined();
    expect(readFileSync(file, "utf8")).toBe("one\n2\nthree\n");
  });

  test("Write is refused too, and a change of mtime alone counts", async () => {
    const dir = tempDir();
    const file = join(dir, "a.txt");
    writeFileSync(file, "same\n");
    const touch = () => utimesSync(file, new Date(), new Date(statSync(file).mtimeMs + 5000));
    const [, refused] = await runCalls(dir, ["Read", { file_path: file }], { before: touch, call: ["Write", { file_path: "a.txt", content: "new\n" }] });
    expect(refused!.is_error).toBe(true);
    expect(refused!.content).toContain(`${CHANGED} (modified at `);
    expect(refused!.content).toContain("same size, 5 bytes");
    expect(readFileSync(file, "utf8")).toBe("same\n");
  });

  test("a deleted file is named as deleted", async () => {
    const dir = tempDir();
    const file = join(dir, "a.txt");
    writeFileSync(file, "x\n");
    const [, refused] = await runCalls(dir, ["Read", { file_path: "a.txt" }], {
      before: () => rmSync(file),
      call: ["Write", { file_path: "a.txt", content: "y\n" }],
    });
    expect(refused!.content).toContain(`${CHANGED} (it has been deleted)`);
  });

  test("what the agent's own Edit, Write and Bash did counts as seen", async () => {
    const dir = tempDir();
    const file = join(dir, "a.txt");
    writeFileSync(file, "one\n");
    const results = await runCalls(
      dir,
      ["Read", { file_path: "a.txt" }],
      ["Edit", { file_path: "a.txt", old_string: "one", new_string: "uno" }],
      ["Write", { file_path: "a.txt", content: "uno\ndos\n" }],
      ["Bash", { command: "echo tres >> a.txt" }],
      ["Edit", { file_path: "a.txt", old_string: "tres", new_string: "three" }],
    );
    expect(results.map((r) => r!.is_error)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(readFileSync(file, "utf8")).toBe("uno\ndos\nthree\n");
  });

  test("an outside change before a Bash call is still unseen after it", async () => {
    const dir = tempDir();
    const file = join(dir, "a.txt");
    writeFileSync(file, "one\n");
    const [, , refused] = await runCalls(
      dir,
      ["Read", { file_path: "a.txt" }],
      { before: () => appendFileSync(file, "theirs\n"), call: ["Bash", { command: "true" }] },
      ["Edit", { file_path: "a.txt", old_string: "one", new_string: "uno" }],
    );
    expect(refused!.content).toContain(CHANGED);
  });

  test("a file never read is edited and written as before, whatever changed it", async () => {
    const dir = tempDir();
    const file = join(dir, "a.txt");
    writeFileSync(file, "one\n");
    const [edited, written] = await runCalls(
      dir,
      { before: () => appendFileSync(file, "two\n"), call: ["Edit", { file_path: "a.txt", old_string: "one", new_string: "uno" }] },
      { before: () => appendFileSync(file, "three\n"), call: ["Write", { file_path: "a.txt", content: "fresh\n" }] },
    );
    expect([edited!.is_error, written!.is_error]).toEqual([undefined, undefined]);
    expect(readFileSync(file, "utf8")).toBe("fresh\n");
  });
});

describe("Bash's working directory", () => {
  test("a cd holds for the next call; environment variables do not", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    const [, second, read] = await runCalls(
      dir,
      ["Bash", { command: "export FOO=bar; cd sub" }],
      ["Bash", { command: 'echo "[${FOO:-}]"; pwd' }],
      ["Read", { file_path: "sub" }],
    );
    expect(second!.content).toBe(`[]\n${join(dir, "sub")}`);
    // Other tools still resolve relative paths against the project directory.
    expect(read!.content).toContain(`${join(dir, "sub")} is a directory`);
  });

  test("a cd in a failing command still holds; positional parameters are empty", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    const [first, second] = await runCalls(dir, ["Bash", { command: 'cd sub && echo "[$#]" && exit 3' }], ["Bash", { command: "pwd" }]);
    expect(first).toMatchObject({ content: "[0]\nExit code 3", is_error: true });
    expect(second!.content).toBe(join(dir, "sub"));
  });

  test("a directory deleted since falls back to the project directory, with a note", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "gone"));
    const [, fallback, after] = await runCalls(
      dir,
      ["Bash", { command: "cd gone" }],
      { before: () => rmSync(join(dir, "gone"), { recursive: true }), call: ["Bash", { command: "pwd" }] },
      ["Bash", { command: "pwd" }],
    );
    expect(fallback!.content).toBe(`(The working directory ${join(dir, "gone")} no longer exists; this command ran in the project directory ${dir}.)\n${dir}`);
    expect(after!.content).toBe(dir);
  });
});

describe("across the turns of one conversation", () => {
  test("host mode (stream-json input): a cd in one turn holds in the next", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "sub"));
    server = startModelServer([
      reply(toolUse("Bash", { command: "cd sub" })),
      reply(text("one")),
      reply(toolUse("Bash", { command: "pwd" })),
      reply(text("two")),
    ]);
    const user = (content: string) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null });
    const stdin = `${user("go in")}\n${user("where now")}\n`;
    const r = await runAgent(["--output-format", "stream-json", "--input-format", "stream-json"], { cwd: dir, model: server.url, stdin });
    expect(r.code).toBe(0);
    expect(server.requests).toHaveLength(4);
    const result = server.requests[3]!.body.messages.at(-1).content.find((b: any) => b.type === "tool_result");
    expect(result.content).toBe(join(dir, "sub"));
  });
});
