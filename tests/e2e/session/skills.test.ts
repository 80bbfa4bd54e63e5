/**
 * Skills in the interactive session, through a pseudo-terminal (tests/support/pty-term.ts): `/skills` lists every
 * skill with where it came from, `/mcp` counts a server's skills, `/<name> args` runs one, and
 * the model's requests carry the listing after the first user message.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { BUN, ROOT, tempDir, writeMcpConfig } from "../../support/run.ts";

afterEach(stopAgent);

function setup(dir: string): void {
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, ".claude", "skills", "deploy"), { recursive: true });
  writeFileSync(join(dir, ".claude", "skills", "deploy", "SKILL.md"), "---\ndescription: Deploy the app\n---\nDeploy to $ARGUMENTS.\n");
  writeMcpConfig(dir, { docs: { command: BUN, args: [join(ROOT, "fixtures/servers/skills-server.ts")] } });
}

describe("skills in the session", () => {
  test(
    "/deploy args runs a skill with the listing in the request; /skills shows each skill's origin; /mcp counts served skills",
    async () => {
      const { term, server, dir } = await startAgent([reply(text("deployed it"))], { setup, height: 40, width: 160 });
      // A turn waits for every server to connect: after it, the served skills are known.
      await submit(term, "/deploy staging");
      await term.waitFor((s) => s.includes("deployed it") && atPrompt(s));
      await submit(term, "/skills");
      await term.waitFor("mcp__docs__checklist");
      const screen = await term.screen();
      expect(screen).toContain(`/deploy  Deploy the app\n    project, ${join(dir, ".claude", "skills", "deploy")}`);
      expect(screen).toContain('/mcp__docs__pdf-processing  Extract, fill, and assemble PDF documents\n    MCP server "docs", skill://pdf-processing/SKILL.md');
      await submit(term, "/mcp");
      await term.waitFor("2 skills");
      const body = server.requests[0]!.body;
      expect(body.messages[0].content[0].text).toContain("<command-name>/deploy</command-name>");
      expect(body.messages[0].content[1].text).toContain("Deploy to staging.");
      expect(body.messages[1].role).toBe("system");
      expect(body.messages[1].content[0].text).toContain("- deploy: Deploy the app\n- mcp__docs__pdf-processing:");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a skill with allowed-tools asks before it loads; once allowed, its tools run without asking for the rest of the turn",
    async () => {
      const home = tempDir("agent-home-");
      mkdirSync(join(home, ".claude", "skills", "shell"), { recursive: true });
      writeFileSync(join(home, ".claude", "skills", "shell", "SKILL.md"), "---\ndescription: runs echo\nallowed-tools: Bash\n---\nRun echo.\n");
      const { term, server } = await startAgent(
        [reply(toolUse("Skill", { skill: "shell" })), reply(toolUse("Bash", { command: "echo granted-run" })), reply(text("all done"))],
        { home },
      );
      await submit(term, "go");
      await term.waitFor("Allow skill shell? It lets Bash run without asking until this turn ends.");
      await term.type("y");
      await term.keys("Enter");
      // No question for Bash: the skill's grant covers it.
      const screen = await term.waitFor((s) => s.includes("all done") && atPrompt(s));
      expect(screen).not.toContain("Allow Bash");
      expect(JSON.stringify(server.requests[2]!.body.messages.at(-1))).toContain("granted-run");
    },
    TEST_TIMEOUT_MS,
  );
});
