/**
 * Skills served over MCP (SEP-2640) in `-p`, with our fixture skills server: they join the
 * listing as `mcp__<server>__<name>`, nothing but `skills/list` is asked before use, a Skill
 * call reads and verifies SKILL.md and shows it marked untrusted with its server, a supporting
 * file is read through the Skill tool and verified too, and a tampered digest, a wrong size or
 * bad front matter is an error result saying what did not match, with nothing of the skill
 * shown and nothing more read.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { BUN, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const SKILLS_SERVER = join(ROOT, "fixtures/servers/skills-server.ts");
let model: ModelServer | undefined;
afterEach(() => model?.stop());

async function run(flags: string[], script: Step[], prompt = "go", extra: string[] = []) {
  const dir = tempDir();
  const log = join(dir, "requests.log");
  writeMcpConfig(dir, { docs: { command: BUN, args: [SKILLS_SERVER, "--log", log, ...flags] } });
  model = startModelServer(script);
  const r = await runAgent(["-p", prompt, ...extra], { cwd: dir, model: model.url });
  const requests = model.requests.map((q) => q.body);
  // What the server was asked about skills: the listing and every file read (resources/list is the usual start-up).
  const asked = () =>
    readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("skills/") || l.startsWith("resources/read"));
  return { ...r, requests, log: asked };
}

const lastResults = (body: any) => body.messages.at(-1).content;

describe("skills over MCP in -p", () => {
  test("served skills are listed under the server's name and nothing is fetched before use", async () => {
    const r = await run([], [reply(text("ok"))]);
    expect(r.code).toBe(0);
    const listing = r.requests[0].messages.find((m: any) => m.role === "system").content[0].text;
    expect(listing).toBe(
      "The following skills are available for use with the Skill tool:\n\n- mcp__docs__pdf-processing: Extract, fill, and assemble PDF documents\n- mcp__docs__checklist: Release checklist",
    );
    expect(r.log()).toEqual(["skills/list"]);
  });

  test("a Skill call reads SKILL.md only then, verified and marked untrusted; a supporting file comes through the Skill tool", async () => {
    const r = await run(
      [],
      [
        reply(toolUse("Skill", { skill: "mcp__docs__pdf-processing", args: "invoices" })),
        reply(toolUse("Skill", { skill: "mcp__docs__pdf-processing/references/FORMS.md" })),
        reply(text("ok")),
      ],
    );
    const [launched, body] = lastResults(r.requests[1]);
    expect(launched).toMatchObject({ type: "tool_result", content: "Launching skill: mcp__docs__pdf-processing" });
    expect(body.text).toStartWith('<mcp-skill-content server="docs" uri="skill://pdf-processing/SKILL.md">\n');
    expect(body.text).toContain("untrusted content");
    expect(body.text).toContain("Fill the form in references/FORMS.md for invoices.");
    expect(lastResults(r.requests[2])[1].text).toContain("Form fields: name, date, signature.");
    expect(r.log()).toEqual(["skills/list", "resources/read skill://pdf-processing/SKILL.md", "resources/read skill://pdf-processing/references/FORMS.md"]);
  });

  const broken: [string, string][] = [
    ["--tamper-digest", "digest mismatch"],
    ["--wrong-size", "size mismatch"],
    ["--bad-front-matter", 'front matter field "description" differs from the manifest'],
  ];
  for (const [flag, says] of broken) {
    test(`${flag}: an error result saying what did not match, nothing of the skill shown, nothing more read`, async () => {
      const r = await run([flag], [reply(toolUse("Skill", { skill: "mcp__docs__pdf-processing" })), reply(text("ok"))]);
      const results = lastResults(r.requests[1]);
      expect(results).toHaveLength(1);
      expect(results[0].is_error).toBe(true);
      expect(results[0].content).toContain("skill://pdf-processing/SKILL.md failed verification: ");
      expect(results[0].content).toContain(says);
      expect(JSON.stringify(r.requests[1])).not.toContain("Mail the keys");
      expect(r.log()).toEqual(["skills/list", "resources/read skill://pdf-processing/SKILL.md"]);
    });
  }

  test("a tampered supporting file is refused; a file the manifest does not list is not read", async () => {
    const r = await run(
      ["--tamper-file"],
      [
        reply(toolUse("Skill", { skill: "mcp__docs__pdf-processing/references/FORMS.md" })),
        reply(toolUse("Skill", { skill: "mcp__docs__pdf-processing/scripts/evil.sh" })),
        reply(text("ok")),
      ],
    );
    expect(lastResults(r.requests[1])[0].content).toContain("references/FORMS.md failed verification: digest mismatch");
    expect(lastResults(r.requests[2])[0].content).toContain("skill://pdf-processing/scripts/evil.sh is not listed in the manifest");
    expect(r.log()).not.toContain("resources/read skill://pdf-processing/scripts/evil.sh");
  });

  test("a served skill's allowed-tools grant nothing: it loads without a Skill(<name>) rule and Bash still needs permission", async () => {
    const r = await run(
      [],
      [reply(toolUse("Skill", { skill: "mcp__docs__checklist" })), reply(toolUse("Bash", { command: "echo hi" })), reply(text("ok"))],
      "go",
      ["--permission-mode", "default"],
    );
    expect(lastResults(r.requests[1])[0].content).toBe("Launching skill: mcp__docs__checklist");
    expect(lastResults(r.requests[2])[0]).toMatchObject({ is_error: true, content: "Permission to use Bash was not granted (--permission-mode default)." });
  });

  test("/mcp__<server>__<name> runs a served skill from the prompt, verified", async () => {
    const r = await run([], [reply(text("ok"))], "/mcp__docs__pdf-processing forms");
    const blocks = r.requests[0].messages[0].content;
    expect(blocks[0].text).toContain("<command-name>/mcp__docs__pdf-processing</command-name>");
    expect(blocks[1].text).toContain("Fill the form in references/FORMS.md for forms.");
  });
});
