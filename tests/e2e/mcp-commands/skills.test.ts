/**
 * `agent mcp skills`, `agent mcp skill` and the skill counts of `mcp list`, against our fixture
 * skills server (SEP-2640): listing reads no file; loading verifies size, digest and front
 * matter, printing the skill or one line saying what did not match (exit 1).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

const SKILLS_SERVER = join(ROOT, "fixtures/servers/skills-server.ts");

function project(flags: string[] = []): string {
  const dir = tempDir();
  writeMcpConfig(dir, { docs: { command: BUN, args: [SKILLS_SERVER, ...flags] } });
  return dir;
}

describe("mcp skills / mcp skill", () => {
  test("mcp list and mcp list --json count a server's skills", async () => {
    const dir = project();
    const list = await runAgent(["mcp", "list"], { cwd: dir });
    expect(list.stdout).toContain("0 tools, 0 prompts, 0 resources, 2 skills");
    const json = JSON.parse((await runAgent(["mcp", "list", "--json"], { cwd: dir })).stdout);
    expect(json[0].skills).toBe(2);
  });

  test("mcp skills lists names and descriptions", async () => {
    const r = await runAgent(["mcp", "skills", "docs"], { cwd: project() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("mcp__docs__pdf-processing  Extract, fill, and assemble PDF documents\nmcp__docs__checklist  Release checklist\n");
  });

  test("mcp skill loads one, verified, with its arguments; <name>/<path> loads one of its files", async () => {
    const dir = project();
    const r = await runAgent(["mcp", "skill", "docs", "pdf-processing", "invoices"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Fill the form in references/FORMS.md for invoices.");
    expect(r.stdout).toContain('<mcp-skill-content server="docs" uri="skill://pdf-processing/SKILL.md">');
    const file = await runAgent(["mcp", "skill", "docs", "pdf-processing/references/FORMS.md"], { cwd: dir });
    expect(file.stdout).toContain("Form fields: name, date, signature.");
  });

  const broken: [string, string][] = [
    ["--tamper-digest", "digest mismatch"],
    ["--wrong-size", 'size mismatch (the manifest says 139 bytes, MCP server "docs" sent 138)'],
    ["--bad-front-matter", 'front matter field "description" differs from the manifest'],
  ];
  for (const [flag, says] of broken) {
    test(`mcp skill refuses a SKILL.md served with ${flag}`, async () => {
      const r = await runAgent(["mcp", "skill", "docs", "pdf-processing"], { cwd: project([flag]) });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`mcp skill: skill://pdf-processing/SKILL.md failed verification: ${says}`);
    });
  }

  test("a skill the listing leaves out loads by its URI through skills/get, verified; an unknown URI is the server's -32602", async () => {
    const dir = project();
    const r = await runAgent(["mcp", "skill", "docs", "skill://team/hidden/SKILL.md"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("The hidden skill's body.");
    const none = await runAgent(["mcp", "skill", "docs", "skill://nope/SKILL.md"], { cwd: dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("mcp skill: skills/get skill://nope/SKILL.md: MCP error -32602");
  });

  test("an unknown skill, and a server without the extension, are one line each", async () => {
    const r = await runAgent(["mcp", "skill", "docs", "nope"], { cwd: project() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('mcp skill: MCP server "docs" has no skill "nope" (skills: mcp__docs__pdf-processing, mcp__docs__checklist)');
    const dir = tempDir();
    writeMcpConfig(dir, { plain: { command: BUN, args: [join(ROOT, "fixtures/servers/fixture-server.ts")] } });
    const none = await runAgent(["mcp", "skills", "plain"], { cwd: dir });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('MCP server "plain" does not declare the skills extension');
  });
});
