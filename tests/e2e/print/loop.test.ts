/**
 * The loop's guarantees about what goes back to the API, through the real program.
 */
import { afterEach, expect, test } from "bun:test";
import { reply, startModelServer, text, toolUse, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
afterEach(() => server?.stop());

test("tool output cut inside a surrogate pair still reaches the API as well-formed text", async () => {
  // 'a' then 20000 emoji (two UTF-16 units each): the 30000-character cap cuts through a pair.
  const command = "printf a; for i in $(seq 20000); do printf '\\360\\237\\230\\200'; done";
  server = startModelServer([reply(toolUse("Bash", { command })), reply(text("done"))]);
  const r = await runAgent(["-p", "emoji"], { cwd: tempDir(), model: server.url });
  expect(r.stdout).toBe("done\n");
  const result = server.requests[1]!.body.messages.at(-1).content[0];
  expect(result.type).toBe("tool_result");
  expect(result.content).toContain("omitted");
  expect(result.content.isWellFormed()).toBe(true);
});
