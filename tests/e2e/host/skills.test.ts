/**
 * Skills in host mode, driven by the real Agent SDK (`query()` with our executable): the SDK's
 * `settingSources` without "project" leaves project skills out, its `skills` option keeps only
 * the named ones, a Skill call loads one as in -p, and `system/init` names the skills offered.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type Options, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { baseEnv, PROGRAM, tempDir } from "../../support/run.ts";

let model: ModelServer | undefined;
afterEach(() => model?.stop());

function skill(root: string, name: string, content: string): string {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, "SKILL.md"), content);
  return join(root, name);
}

/** A project with skill `deploy`, a config folder with user skill `review`, and a query against the scripted model. */
async function ask(script: Step[], extra: Partial<Options> = {}) {
  const dir = tempDir();
  mkdirSync(join(dir, ".git"));
  const config = tempDir("agent-config-");
  const deploy = skill(join(dir, ".claude", "skills"), "deploy", "---\ndescription: Deploy the app\n---\nDeploy to $ARGUMENTS.\n");
  skill(join(config, "skills"), "shell", "---\ndescription: runs echo\nallowed-tools: Bash\n---\nRun echo.\n");
  skill(join(config, "skills"), "review", "---\ndescription: Review checklist\n---\nCheck things.\n");
  model = startModelServer(script);
  const env = { ...baseEnv(model.url), CLAUDE_CONFIG_DIR: config } as Record<string, string>;
  const messages: SDKMessage[] = [];
  for await (const m of query({ prompt: "go", options: { pathToClaudeCodeExecutable: PROGRAM, cwd: dir, env, ...extra } })) messages.push(m);
  return { messages, deploy, requests: model.requests.map((q) => q.body) };
}

const listingOf = (body: any): string | undefined => body.messages.find((m: any) => m.role === "system")?.content[0].text;
const HEADER = "The following skills are available for use with the Skill tool:\n\n";

describe("skills in host mode", () => {
  test("a Skill call loads a project skill; system/init names the skills", async () => {
    const r = await ask([reply(toolUse("Skill", { skill: "deploy", args: "prod" })), reply(text("done"))]);
    expect(listingOf(r.requests[0])).toBe(`${HEADER}- review: Review checklist\n- shell: runs echo\n- deploy: Deploy the app`);
    expect(r.requests[1].messages.at(-1).content[1].text).toBe(`Base directory for this skill: ${r.deploy}\n\nDeploy to prod.\n`);
    const init = r.messages.find((m) => m.type === "system" && (m as any).subtype === "init") as any;
    expect(init.skills).toEqual(["review", "shell", "deploy"]);
  }, 60_000);

  test('settingSources without "project" means no project skills', async () => {
    const r = await ask([reply(text("ok"))], { settingSources: ["user"] });
    expect(listingOf(r.requests[0])).toBe(`${HEADER}- review: Review checklist\n- shell: runs echo`);
  }, 60_000);

  test("the skills option offers only the named skills", async () => {
    const r = await ask([reply(toolUse("Skill", { skill: "review" })), reply(text("ok"))], { skills: ["deploy"] });
    expect(listingOf(r.requests[0])).toBe(`${HEADER}- deploy: Deploy the app`);
    expect(r.requests[1].messages.at(-1).content[0]).toMatchObject({ is_error: true, content: "<tool_use_error>Unknown skill: review</tool_use_error>" });
  }, 60_000);

  test("a skill with allowed-tools is a can_use_tool question for Skill; once allowed, its tools need none for the turn", async () => {
    const asked: string[] = [];
    const r = await ask([reply(toolUse("Skill", { skill: "shell" })), reply(toolUse("Bash", { command: "echo granted-run" })), reply(text("ok"))], {
      permissionMode: "default",
      canUseTool: async (name, input) => {
        asked.push(`${name} ${JSON.stringify(input)}`);
        return { behavior: "allow", updatedInput: input };
      },
    });
    expect(asked).toEqual(['Skill {"skill":"shell"}']);
    expect(r.requests[1].messages.at(-1).content[0].content).toBe("Launching skill: shell");
    expect(JSON.stringify(r.requests[2].messages.at(-1))).toContain("granted-run");
  }, 60_000);

  test("a refused skill is the host's message as an error result", async () => {
    const r = await ask([reply(toolUse("Skill", { skill: "shell" })), reply(text("ok"))], {
      permissionMode: "default",
      canUseTool: async () => ({ behavior: "deny", message: "not this one" }),
    });
    expect(r.requests[1].messages.at(-1).content[0]).toMatchObject({ is_error: true, content: "not this one" });
  }, 60_000);
});
