/**
 * Subagents in the interactive session, through a pseudo-terminal (tests/support/pty-term.ts): the Agent tool is offered
 * by default, a subagent runs, one line sums it up, its report reaches the model, and `/agents` lists every agent
 * type with its origin and tools.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";

afterEach(stopAgent);

function setup(dir: string): void {
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, ".claude", "agents"), { recursive: true });
  writeFileSync(
    join(dir, ".claude", "agents", "reviewer.md"),
    "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: haiku\n---\nREVIEW\n",
  );
}

describe("subagents in the session", () => {
  test(
    "an Agent call runs a subagent whose report reaches the model; /agents lists each type with its origin and tools",
    async () => {
      const { term, server } = await startAgent(
        [reply(toolUse("Agent", { description: "review", prompt: "look", subagent_type: "reviewer" })), reply(text("SUB_REPORT")), reply(text("all reviewed"))],
        { setup, height: 40, width: 160 },
      );
      await submit(term, "review please");
      // Agent calls never ask: the subagent's own calls go through the usual questions.
      await term.waitFor((s) => s.includes("all reviewed") && atPrompt(s));
      // One line under the Agent call sums the subagent up.
      expect(await term.screen()).toMatch(/⎿ Agent reviewer: review completed · 15 tokens · 0 tool uses · \d+\.\ds/);
      expect(server.requests[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("Agent");
      expect(server.requests[1]!.body.model).toMatch(/^claude-haiku-/);
      expect(JSON.stringify(server.requests[2]!.body.messages.at(-1))).toContain("  SUB_REPORT");
      await submit(term, "/agents");
      await term.waitFor("reviewer  (project, model haiku)");
      const screen = await term.screen();
      expect(screen).toContain("general-purpose  (built-in)");
      expect(screen).toContain("Explore  (built-in)\n    Fast read-only agent");
      expect(screen).toContain("reviewer  (project, model haiku)\n    Reviews code\n    tools: Read, Grep");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a subagent's permission question names the agent",
    async () => {
      const { term, dir } = await startAgent(
        [
          reply(toolUse("Agent", { description: "make", prompt: "make a file", subagent_type: "maker" })),
          reply(toolUse("Bash", { command: "touch made.txt" })),
          reply(text("made")),
          reply(text("all made")),
        ],
        {
          setup: (d) => {
            setup(d);
            writeFileSync(join(d, ".claude", "agents", "maker.md"), "---\nname: maker\ndescription: Makes files\ntools: Bash\n---\nMAKE\n");
          },
          height: 40,
          width: 160,
        },
      );
      await submit(term, "make it");
      await term.waitFor("Agent maker asks: Allow Bash");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("all made") && atPrompt(s));
      expect(existsSync(join(dir, "made.txt"))).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
