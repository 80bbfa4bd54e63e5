/**
 * -p's first Messages API request, byte for byte: a plain (non-streaming) request whose tools,
 * system prompt and message are what they were before every mode shared one turn (lib/cli/turn.ts).
 * The golden file was recorded from the program as it was; the working directory and the date
 * are the only parts that vary, and are replaced by placeholders before comparing.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, PROGRAM, runAgent, tempDir } from "../../support/run.ts";

const GOLDEN = join(import.meta.dir, "golden/first-request.json");

/** Runs `program -p` on a fixed project with one fixture server and returns its first request, normalised. */
export async function firstRequest(program: string): Promise<string> {
  const model = startModelServer([reply(text("fine"))]);
  try {
    const cwd = tempDir();
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fx: { command: BUN, args: [FIXTURE_SERVER] } } }));
    writeFileSync(join(cwd, "notes.txt"), "a note\n");
    const r = await runAgent(["-p", "how are you? see @notes.txt"], { cwd, model: model.url, program });
    expect([r.code, r.stdout]).toEqual([0, "fine\n"]);
    return model.requests[0]!.raw.split(cwd)
      .join("<cwd>")
      .replace(/Today's date: \d{4}-\d\d-\d\d/, "Today's date: <date>");
  } finally {
    model.stop();
  }
}

test("-p's first request is byte-identical to the one recorded before the shared turn", async () => {
  const got = await firstRequest(PROGRAM);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, got);
  const want = readFileSync(GOLDEN, "utf8");
  expect(JSON.parse(got).stream).toBeUndefined();
  expect(got).toBe(want);
});
