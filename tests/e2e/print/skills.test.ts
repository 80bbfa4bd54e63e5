/**
 * Agent Skills in `-p`, with real SKILL.md files in temporary projects and homes and the
 * scripted Messages API: the listing in the first request (a system-role message after the
 * first user message, as Claude Code 2.1.328 sends it), the Skill tool's result, `/name args`,
 * supporting files, a broken SKILL.md, name clashes, `allowed-tools`, and requests unchanged
 * without skills.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

let model: ModelServer | undefined;
afterEach(() => model?.stop());

const HEADER = "The following skills are available for use with the Skill tool:\n\n";

function skill(root: string, name: string, content: string, files: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), content);
  for (const [f, c] of Object.entries(files)) writeFileSync(join(dir, f), c);
  return dir;
}

/** A git project with `.claude/skills` and a home with `.claude/skills`. */
function place() {
  const dir = tempDir();
  mkdirSync(join(dir, ".git"));
  const home = tempDir("agent-home-");
  return { dir, home, project: join(dir, ".claude", "skills"), user: join(home, ".claude", "skills") };
}

async function run(p: { dir: string; home: string }, args: string[], script: Step[], cwd = p.dir) {
  model = startModelServer(script);
  const r = await runAgent(["-p", ...args], { cwd, env: { HOME: p.home }, model: model.url });
  return { ...r, requests: model.requests.map((q) => q.body) };
}

const listingOf = (body: any): string | undefined => body.messages.find((m: any) => m.role === "system")?.content[0].text;

describe("skills in -p", () => {
  test("the first request lists user then project skills after the first user message, with no body; Skill loads one with its arguments", async () => {
    const p = place();
    const deploy = skill(
      p.project,
      "deploy",
      "---\nname: deploy\ndescription: Deploy the app\nwhen_to_use: when the user says ship\n---\nDeploy to $ARGUMENTS now. First: $0. Notes in ${CLAUDE_SKILL_DIR}/notes.md\n",
      { "notes.md": "staging is at port 8443\n" },
    );
    skill(p.user, "review-checklist", "---\ndescription: Review checklist\n---\nCheck things.\n");
    const r = await run(
      p,
      ["hello"],
      [reply(toolUse("Skill", { skill: "deploy", args: "staging now" })), reply(toolUse("Read", { file_path: join(deploy, "notes.md") })), reply(text("done"))],
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("done\n");
    const [first, second, third] = r.requests;
    expect(first.messages.map((m: any) => m.role)).toEqual(["user", "system"]);
    expect(listingOf(first)).toBe(`${HEADER}- review-checklist: Review checklist\n- deploy: Deploy the app - when the user says ship`);
    expect(JSON.stringify(first)).not.toContain("Deploy to");
    expect(first.tools.map((t: any) => t.name)).toContain("Skill");
    const loaded = second.messages.at(-1).content;
    expect(loaded[0]).toMatchObject({ type: "tool_result", content: "Launching skill: deploy" });
    expect(loaded[0].is_error).toBeUndefined();
    expect(loaded[1].text).toBe(`Base directory for this skill: ${deploy}\n\nDeploy to staging now now. First: staging. Notes in ${deploy}/notes.md\n`);
    // Every later request keeps the listing where the first had it.
    expect(listingOf(third)).toBe(listingOf(first));
    expect(JSON.stringify(third.messages.at(-1))).toContain("staging is at port 8443");
  });

  test("without any skills folder there is no Skill tool and no system message", async () => {
    const p = place();
    const r = await run(p, ["hello"], [reply(text("hi"))]);
    expect(r.requests[0].messages.map((m: any) => m.role)).toEqual(["user"]);
    expect(r.requests[0].tools.map((t: any) => t.name)).not.toContain("Skill");
  });

  test("with an MCP server that serves no skills and no skills folder, requests are as without skills", async () => {
    const p = place();
    writeMcpConfig(p.dir, { plain: { command: BUN, args: [FIXTURE_SERVER] } });
    const r = await run(p, ["hello"], [reply(text("hi"))]);
    expect(r.requests[0].messages.map((m: any) => m.role)).toEqual(["user"]);
    expect(r.requests[0].tools.map((t: any) => t.name)).not.toContain("Skill");
  });

  test("an unknown skill and a disable-model-invocation skill are error results; the latter is not listed", async () => {
    const p = place();
    skill(p.project, "manual", "---\ndescription: manual one\ndisable-model-invocation: true\n---\nmanual body\n");
    skill(p.project, "auto", "---\ndescription: auto one\n---\nauto body\n");
    const r = await run(p, ["go"], [reply(toolUse("Skill", { skill: "nope" })), reply(toolUse("Skill", { skill: "manual" })), reply(text("ok"))]);
    expect(listingOf(r.requests[0])).toBe(`${HEADER}- auto: auto one`);
    expect(r.requests[1].messages.at(-1).content[0]).toMatchObject({ is_error: true, content: "<tool_use_error>Unknown skill: nope</tool_use_error>" });
    const manual = r.requests[2].messages.at(-1).content[0];
    expect(manual.is_error).toBe(true);
    expect(manual.content).toContain("Skill manual cannot be used with Skill tool due to disable-model-invocation");
  });

  test("/name args runs the skill from the prompt, before a legacy command of the same name, and says so", async () => {
    const p = place();
    const dir = skill(p.project, "deploy", "---\ndescription: Deploy the app\n---\nDeploy body $ARGUMENTS\n");
    mkdirSync(join(p.dir, ".claude", "commands"), { recursive: true });
    writeFileSync(join(p.dir, ".claude", "commands", "deploy.md"), "command deploy body\n");
    const r = await run(p, ["/deploy staging now"], [reply(text("deployed"))]);
    expect(r.code).toBe(0);
    expect(r.requests[0].messages[0].content.map((b: any) => b.text)).toEqual([
      "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>\n<command-args>staging now</command-args>\n",
      `Base directory for this skill: ${dir}\n\nDeploy body staging now\n`,
    ]);
    expect(r.stderr).toContain(`skill "deploy" wins over the command ${join(p.dir, ".claude", "commands", "deploy.md")}`);
  });

  test("a user-invocable: false skill is listed for the model but refused as /name, before any model call", async () => {
    const p = place();
    skill(p.project, "hidden", "---\ndescription: hidden one\nuser-invocable: false\n---\nhidden body\n");
    const r = await run(p, ["/hidden"], [reply(text("never"))]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("/hidden: this skill can only be invoked by Claude, not directly by users");
    expect(r.requests).toHaveLength(0);
  });

  test("a broken SKILL.md still loads with the body's first line as its description; --debug says why; the others load", async () => {
    const p = place();
    const broken = skill(p.project, "broken", "---\ndescription: ok\n  bad: indent\n- item\n---\nFirst line of broken\nmore.\n");
    skill(p.project, "noclose", "---\ndescription: x\nBody without a closing fence\n");
    skill(p.project, "quoted", "---\ndescription: [unclosed\n---\nquoted body\n");
    skill(p.project, "good", "---\ndescription: Good one\n---\ngood body\n");
    model = startModelServer([reply(toolUse("Skill", { skill: "broken" })), reply(text("ok"))]);
    const r = await runAgent(["-p", "go", "--debug"], { cwd: p.dir, env: { HOME: p.home }, model: model.url });
    const body = model.requests.map((q) => q.body);
    expect(listingOf(body[0])).toBe(`${HEADER}- broken: First line of broken\n- good: Good one\n- noclose: ---\n- quoted: [unclosed`);
    expect(r.stderr).toContain(`[skills] YAML frontmatter in ${broken}/SKILL.md failed to parse and was ignored: YAML Parse error:`);
    expect(body[1].messages.at(-1).content[1].text).toBe(`Base directory for this skill: ${broken}\n\nFirst line of broken\nmore.\n`);
  });

  test("a name in both the user's and the project's folders: the user's wins, and one line says so", async () => {
    const p = place();
    skill(p.project, "dup", "---\ndescription: project dup\n---\nproject body\n");
    const mine = skill(p.user, "dup", "---\ndescription: user dup\n---\nuser body\n");
    const r = await run(p, ["go"], [reply(toolUse("Skill", { skill: "dup" })), reply(text("ok"))]);
    expect(listingOf(r.requests[0])).toBe(`${HEADER}- dup: user dup`);
    expect(r.requests[1].messages.at(-1).content[1].text).toBe(`Base directory for this skill: ${mine}\n\nuser body\n`);
    expect(r.stderr).toContain(`skill "dup": the user skill in ${mine} wins over the project skill in ${join(p.project, "dup")}`);
  });

  test("project skills come from the working directory and its parents up to the repository root, nearest first, none above it", async () => {
    const p = place();
    const repo = join(p.dir, "repo");
    mkdirSync(join(repo, ".git"), { recursive: true });
    const sub = join(repo, "pkg");
    skill(join(sub, ".claude", "skills"), "inner", "---\ndescription: inner one\n---\ninner\n");
    skill(join(repo, ".claude", "skills"), "outer", "---\ndescription: outer one\n---\nouter\n");
    skill(p.project, "above", "---\ndescription: above the repository\n---\nabove\n");
    const r = await run(p, ["go"], [reply(text("ok"))], sub);
    expect(listingOf(r.requests[0])).toBe(`${HEADER}- inner: inner one\n- outer: outer one`);
    // Outside a repository the walk goes on up, as Claude Code's does.
    const loose = join(p.dir, "loose", "deep");
    mkdirSync(loose, { recursive: true });
    rmSync(join(p.dir, ".git"), { recursive: true });
    const up = await run(p, ["go"], [reply(text("ok"))], loose);
    expect(listingOf(up.requests[0])).toBe(`${HEADER}- above: above the repository`);
  });

  test("the front matter's name is shown beside the directory name, and descriptions are capped at 1,536 characters", async () => {
    const p = place();
    skill(p.project, "named", "---\nname: other-name\ndescription: named one\n---\nbody\n");
    skill(p.user, "long", `---\ndescription: ${"d".repeat(1500)}\nwhen_to_use: ${"w".repeat(100)}\n---\nlong\n`);
    const r = await run(p, ["go"], [reply(text("ok"))]);
    const lines = listingOf(r.requests[0])!.split("\n");
    expect(lines[2]).toBe(`- long: ${"d".repeat(1500)} - ${"w".repeat(32)}…`);
    expect(lines[2]!.length).toBe("- long: ".length + 1536);
    expect(lines[3]).toBe("- named (other-name): named one");
  });

  test("allowed-tools: without a Skill(<name>) rule the skill is refused in Claude Code's words; with one, its tools run for the turn", async () => {
    const p = place();
    skill(p.user, "shell", "---\ndescription: runs echo\nallowed-tools: Bash\n---\nRun echo.\n");
    const script = () => [reply(toolUse("Skill", { skill: "shell" })), reply(toolUse("Bash", { command: "echo granted" })), reply(text("ok"))];
    const refused = await run(p, ["go", "--permission-mode", "default"], script());
    expect(refused.requests[1].messages.at(-1).content[0]).toMatchObject({
      is_error: true,
      content: "Execute skill: shell. The user can add the allow rule Skill(shell) to .claude/settings.local.json to let it run without asking.",
    });
    const bash = refused.requests[2].messages.at(-1).content[0];
    expect(bash.is_error).toBe(true);
    const allowed = await run(p, ["go", "--permission-mode", "default", "--allowedTools", "Skill(shell)"], script());
    expect(allowed.requests[1].messages.at(-1).content[0].content).toBe("Launching skill: shell");
    const ran = allowed.requests[2].messages.at(-1).content[0];
    expect(ran.is_error).toBeUndefined();
    expect(JSON.stringify(ran.content)).toContain("granted");
  });

  test("a bypass mode (--permission-mode bypassPermissions, --dangerously-skip-permissions) loads a skill with allowed-tools without a rule", async () => {
    const p = place();
    skill(p.user, "shell", "---\ndescription: runs echo\nallowed-tools: Bash\n---\nRun echo.\n");
    for (const flags of [["--permission-mode", "bypassPermissions"], ["--dangerously-skip-permissions"]]) {
      const r = await run(p, ["go", ...flags], [reply(toolUse("Skill", { skill: "shell" })), reply(text("ok"))]);
      expect(r.requests[1].messages.at(-1).content[0].content).toBe("Launching skill: shell");
    }
  });

  test("a settings permissions.allow rule Skill(<name>) lets the skill load as --allowedTools does; Skill(<other>) does not", async () => {
    const p = place();
    skill(p.user, "shell", "---\ndescription: runs echo\nallowed-tools: Bash\n---\nRun echo.\n");
    const script = () => [reply(toolUse("Skill", { skill: "shell" })), reply(toolUse("Bash", { command: "echo granted" })), reply(text("ok"))];
    const settings = (rule: string) => ["--settings", JSON.stringify({ permissions: { allow: [rule] } })];
    const allowed = await run(p, ["go", "--permission-mode", "default", ...settings("Skill(shell)")], script());
    expect(allowed.requests[1].messages.at(-1).content[0].content).toBe("Launching skill: shell");
    const ran = allowed.requests[2].messages.at(-1).content[0];
    expect(ran.is_error).toBeUndefined();
    expect(JSON.stringify(ran.content)).toContain("granted");
    const other = await run(p, ["go", "--permission-mode", "default", ...settings("Skill(deploy)")], script());
    expect(other.requests[1].messages.at(-1).content[0]).toMatchObject({ is_error: true, content: expect.stringContaining("Execute skill: shell.") });
  });

  test("a scoped allowed-tools rule (Bash(echo:*)) grants what the same settings rule would: echo runs, another command is refused", async () => {
    const p = place();
    skill(p.user, "shell", "---\ndescription: runs echo\nallowed-tools: Bash(echo:*)\n---\nRun echo.\n");
    const r = await run(
      p,
      ["go", "--permission-mode", "default", "--allowedTools", "Skill(shell)"],
      [
        reply(toolUse("Skill", { skill: "shell" })),
        reply(toolUse("Bash", { command: "echo granted" })),
        reply(toolUse("Bash", { command: "touch made-by-bash" })),
        reply(text("ok")),
      ],
    );
    expect(r.code).toBe(0);
    const echo = r.requests[2].messages.at(-1).content[0];
    expect(echo.is_error).toBeUndefined();
    expect(JSON.stringify(echo.content)).toContain("granted");
    expect(r.requests[3].messages.at(-1).content[0]).toMatchObject({
      is_error: true,
      content: "Permission to use Bash was not granted (--permission-mode default).",
    });
  });
});
