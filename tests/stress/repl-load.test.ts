/**
 * Load in the interactive session (the real program in a pseudo-terminal): 50 turns in a row, each calling
 * a tool of a stdio server, each answered on screen with the prompt back; the session then ends
 * on Ctrl-D with exit 0 and its server reaped.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, type Step, text, toolUse } from "../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit } from "../support/repl.ts";
import { fixtureServer, writeMcpConfig } from "../support/run.ts";
import { gone } from "../support/mcp.ts";

afterEach(() => stopAgent());

const TURNS = 50;

describe("interactive load", () => {
  test(`${TURNS} turns, a tool call each`, async () => {
    const script: Step[] = [];
    for (let t = 0; t < TURNS; t++) script.push(reply(toolUse("mcp__fx__echo", { text: `call ${t}` })), reply(text(`answer ${t} done`)));
    let pids = "";
    const { term, server } = await startAgent(script, {
      args: ["--allowedTools", "mcp__fx__echo"],
      setup: (dir) => {
        pids = join(dir, "pids");
        writeMcpConfig(dir, { fx: fixtureServer("--pid-file", pids) });
      },
    });
    for (let t = 0; t < TURNS; t++) {
      await submit(term, `question ${t}`);
      await term.waitFor((s) => s.includes(`answer ${t} done`) && atPrompt(s), undefined, "visible");
    }
    expect(server.requests).toHaveLength(2 * TURNS);
    expect(server.requests.at(-1)!.body.messages.at(-1).content[0]).toMatchObject({ type: "tool_result", content: `call ${TURNS - 1}` });
    await term.keys("C-d");
    expect(await term.waitForExit()).toBe(0);
    const pid = Number(readFileSync(pids, "utf8").trim());
    expect(await gone(pid)).toBe(true);
  }, 60_000);
});
