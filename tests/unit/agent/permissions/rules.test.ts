/**
 * Permission rules as pure functions: the Bash tokenizer and matcher (Claude Code's word boundary,
 * compound commands, what cannot be vouched for), Read/Edit anchors, MCP names, deny > ask > allow.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import { parseBash } from "../../../../lib/agent/permissions/bash-parse.ts";
import type { SettingsFile } from "../../../../lib/agent/settings/files.ts";
import type { Behavior } from "../../../../lib/agent/settings/merge.ts";
import { compilePathPattern } from "../../../../lib/agent/permissions/path-rules.ts";
import { compileRules, parseRuleText, PermissionRules } from "../../../../lib/agent/permissions/rules.ts";

// Bash decisions read the shell grammar, which the gate loads before the first Bash call.
beforeAll(() => loadBashGrammar());

const file = (scope: SettingsFile["scope"] = "project", root = "/p"): SettingsFile => ({ scope, path: `/p/.claude/settings.json`, root, doc: {} });
const ctx = { cwd: "/p", home: "/home/u", warn: () => {} };
function rules(spec: Partial<Record<Behavior, string[]>>, f = file()): PermissionRules {
  const texts = (["deny", "ask", "allow"] as const).flatMap((behavior) => (spec[behavior] ?? []).map((text) => ({ text, behavior, file: f })));
  return new PermissionRules(compileRules(texts, ctx), ctx);
}
const bash = (r: PermissionRules, command: string) => r.decide("Bash", { command })?.behavior;

describe("rule syntax", () => {
  test("a deny rule with stray spaces around a Bash prefix denies the command", async () => {
    await loadBashGrammar();
    expect(bash(rules({ deny: ["Bash(rm :*)"] }), "rm -f v1")).toBe("deny");
    expect(bash(rules({ deny: ["Bash( rm:*)"] }), "rm v1")).toBe("deny");
  });

  test("Tool, Tool(spec), Tool(*) and malformed", () => {
    expect(parseRuleText("Bash")).toEqual({ tool: "Bash" });
    expect(parseRuleText("Bash(*)")).toEqual({ tool: "Bash" });
    expect(parseRuleText("Bash(npm run test:*)")).toEqual({ tool: "Bash", spec: "npm run test:*" });
    expect(parseRuleText("Bash(unclosed")).toBeUndefined();
    // Stray spaces in a Bash specifier are not part of the command: a deny rule written so still denies.
    for (const text of ["Bash(rm :*)", "Bash( rm:*)", "Bash(rm:* )", "Bash(  rm  :*  )"]) expect(parseRuleText(text)).toEqual({ tool: "Bash", spec: "rm:*" });
    expect(parseRuleText("")).toBeUndefined();
  });

  test("an invalid rule is one line naming it and its file; a glob tool name in allow is refused", () => {
    const lines: string[] = [];
    compileRules(
      [
        { text: "Bash(oops", behavior: "deny", file: file() },
        { text: "Ba*", behavior: "allow", file: file() },
        { text: "mcp__srv__*", behavior: "allow", file: file() },
      ],
      { ...ctx, warn: (l) => lines.push(l) },
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('/p/.claude/settings.json: permissions.deny: malformed permission rule "Bash(oops" denies every Bash call');
  });

  test("a malformed deny or ask rule fails closed for the tool it names; a malformed allow rule allows nothing", () => {
    const r = rules({ deny: ["Bash(rm:*", "Read(//p/secret"], ask: ["Edit(./x"], allow: ["Grep(x", "Bash(ls:*"] });
    expect(bash(r, "rm victim")).toBe("deny");
    expect(bash(r, "ls")).toBe("deny");
    expect(r.decide("Read", { file_path: "/p/other" })?.behavior).toBe("deny");
    expect(r.decide("Grep", { pattern: "x" })?.behavior).toBe("deny");
    expect(r.decide("Edit", { file_path: "/p/y", old_string: "a", new_string: "b" })?.behavior).toBe("ask");
    expect(r.decide("Glob", { pattern: "*" })?.behavior).toBe("deny");
    expect(r.decide("Write", { file_path: "/p/y", content: "" })?.behavior).toBe("ask");
    // The tool stays offered: only a bare deny takes it off the request.
    expect(r.removes("Bash")).toBe(false);
    const allowOnly = rules({ allow: ["Bash(ls:*"] });
    expect(bash(allowOnly, "ls")).toBeUndefined();
  });
});

describe("Bash matching", () => {
  test(":* and a trailing ' *' are a word boundary; * matches anywhere; otherwise exact", () => {
    const r = rules({ deny: ["Bash(qux:*)", "Bash(foo *)", "Bash(git * --force)", "Bash(exact cmd)"] });
    expect(bash(r, "qux")).toBe("deny");
    expect(bash(r, "qux a b")).toBe("deny");
    expect(bash(r, "quxx")).toBeUndefined();
    expect(bash(r, "foo a")).toBe("deny");
    expect(bash(r, "foox a")).toBeUndefined();
    expect(bash(r, "git push origin --force")).toBe("deny");
    expect(bash(r, "exact cmd")).toBe("deny");
    expect(bash(r, "exact cmd more")).toBeUndefined();
  });

  test("deny matches any part of && || ; | |& & and newlines, and nested or wrapped commands", () => {
    const r = rules({ deny: ["Bash(rm:*)"] });
    for (const c of [
      "a && rm x",
      "a || rm x",
      "a; rm x",
      "a | rm x",
      "a |& rm x",
      "a & rm x",
      "a\nrm x",
      "FOO=1 rm x",
      "echo $(rm x)",
      "echo `rm x`",
      "sudo -u root rm x",
      "env A=1 rm x",
      "xargs rm",
      "nohup rm x",
      "timeout 5 rm x",
      "bash -c 'rm x'",
      "eval rm x",
      "(rm x)",
      "if true; then rm x; fi",
      '"rm" x',
      "\\rm x",
      "/bin/rm x",
      "cat <(rm x)",
    ]) {
      expect(`${c} → ${bash(r, c)}`).toBe(`${c} → deny`);
    }
    expect(bash(r, "echo 'rm x'")).toBeUndefined();
    expect(bash(r, "echo rm")).toBeUndefined();
  });

  test("allow needs every part allowed and nothing unsafe", () => {
    const r = rules({ allow: ["Bash(echo:*)", "Bash(ls:*)"] });
    expect(bash(r, "echo a && ls")).toBe("allow");
    expect(bash(r, "echo a && rm x")).toBeUndefined();
    for (const c of [
      "echo $(ls)",
      "echo `ls`",
      "echo $HOME",
      "(echo a)",
      "FOO=1 echo a",
      "env echo a",
      "sudo echo a",
      "xargs echo",
      "sh -c 'echo a'",
      "eval echo a",
    ]) {
      expect(`${c} → ${bash(r, c)}`).toBe(`${c} → undefined`);
    }
    expect(bash(r, "LANG=C echo a")).toBe("allow");
    expect(bash(r, "timeout 5 echo a")).toBe("allow");
  });

  test("deny, then ask, then allow, whatever the order of files", () => {
    const r = rules({ allow: ["Bash"], ask: ["Bash(git push:*)"], deny: ["Bash(git push --force:*)"] });
    expect(bash(r, "git push --force origin")).toBe("deny");
    expect(bash(r, "git push origin")).toBe("ask");
    expect(bash(r, "git status")).toBe("allow");
  });

  test("the tokenizer keeps quoted operators inside their word", () => {
    const parsed = parseBash(`echo "a && b" 'c; d' e\\;f`);
    expect(parsed.parts.map((p) => p.plain)).toEqual(["echo a && b c; d e;f"]);
    expect(parsed.unsafe).toBeUndefined();
    expect(parseBash("a 2>&1 | b").parts.map((p) => p.text)).toEqual(["a 2>&1", "b"]);
  });
});

describe("Read and Edit paths", () => {
  const match = (spec: string, path: string, root = "/p") => compilePathPattern(spec, { cwd: "/p", home: "/home/u", root }).matches(path);

  test("anchors: //, ~/, / (the file's root), ./ and bare", () => {
    expect(match("//etc/passwd", "/etc/passwd")).toBe(true);
    expect(match("~/.ssh/**", "/home/u/.ssh/id_rsa")).toBe(true);
    expect(match("/secrets/**", "/p/secrets/k")).toBe(true);
    expect(match("/s.txt", "/p/s.txt", "/home/u/.claude")).toBe(false);
    expect(match("/s.txt", "/home/u/.claude/s.txt", "/home/u/.claude")).toBe(true);
    expect(match("./secrets/**", "/p/secrets/a/b")).toBe(true);
    expect(match("secrets/**", "/p/secrets/a")).toBe(true);
    expect(match("secrets/**", "/q/secrets/a")).toBe(false);
  });

  test("gitignore: a name without a slash matches at any depth; a folder covers its files; dotfiles count", () => {
    expect(match(".env", "/p/a/b/.env")).toBe(true);
    expect(match("*.pem", "/p/deep/k.pem")).toBe(true);
    expect(match("./secrets", "/p/secrets/key.txt")).toBe(true);
    expect(match("./build/", "/p/build/x/y")).toBe(true);
    expect(match("*.{key,pem}", "/p/a.key")).toBe(true);
  });

  test("Read rules cover Read, Grep and Glob; Edit rules cover Edit and Write; Write(path) is never consulted", () => {
    const r = rules({ deny: ["Read(./secrets/**)", "Edit(*.md)", "Write(*.txt)"] });
    expect(r.decide("Read", { file_path: "/p/secrets/k" })?.behavior).toBe("deny");
    expect(r.decide("Grep", { pattern: "x", path: "secrets" })?.behavior).toBe("deny");
    expect(r.decide("Glob", { pattern: "*", path: "/p/secrets" })?.behavior).toBe("deny");
    expect(r.decide("Write", { file_path: "/p/a.md" })?.behavior).toBe("deny");
    expect(r.decide("Edit", { file_path: "/p/a.md" })?.behavior).toBe("deny");
    expect(r.decide("Write", { file_path: "/p/a.txt" })).toBeUndefined();
    expect(r.readDenied("/p/secrets/k")).toBeDefined();
  });
});

describe("MCP and bare names", () => {
  const route = { server: "my.server", tool: "do thing" };
  test("mcp__server, mcp__server__*, mcp__server__tool with the names as written; a bare deny removes the tool", () => {
    expect(rules({ deny: ["mcp__my.server"] }).removes("mcp__my_server__do_thing", route)).toBe(true);
    expect(rules({ deny: ["mcp__my.server__*"] }).removes("mcp__my_server__do_thing", route)).toBe(true);
    expect(rules({ ask: ["mcp__my.server__do thing"] }).decide("mcp__my_server__do_thing", {}, route)?.behavior).toBe("ask");
    expect(rules({ deny: ["mcp__other"] }).removes("mcp__my_server__do_thing", route)).toBe(false);
    expect(rules({ deny: ["mcp__*"] }).removes("mcp__my_server__do_thing", route)).toBe(true);
    expect(rules({ deny: ["Bash(rm:*)"] }).removes("Bash")).toBe(false);
  });

  test("Claude Code's older tool names name the tools they became: Task the Agent tool, KillShell and KillBash TaskStop", () => {
    expect(parseRuleText("Task")).toEqual({ tool: "Agent" });
    expect(parseRuleText("KillShell")).toEqual({ tool: "TaskStop" });
    const r = rules({ deny: ["Task", "KillBash"] });
    expect(r.removes("Agent")).toBe(true);
    expect(r.decide("Agent", { description: "d", prompt: "p" })?.behavior).toBe("deny");
    expect(r.decide("TaskStop", { task_id: "b1" })?.behavior).toBe("deny");
    expect(r.decide("Bash", { command: "ls" })).toBeUndefined();
  });

  test("rules for tools we lack are kept and never match ours", () => {
    const r = rules({ deny: ["WebFetch(domain:x.com)", "Task", "Agent(Explore)"] });
    expect(r.size).toBe(3);
    expect(r.removes("Bash")).toBe(false);
    expect(r.decide("Read", { file_path: "/p/x" })).toBeUndefined();
  });
});

describe("Skill rules", () => {
  test("Skill(name) covers the Skill call for that skill only; bare Skill covers every one; deny beats allow", () => {
    const skill = (r: PermissionRules, name: string) => r.decide("Skill", { skill: name })?.behavior;
    const r = rules({ allow: ["Skill(deploy)"] });
    expect(skill(r, "deploy")).toBe("allow");
    expect(skill(r, "/deploy")).toBe("allow");
    expect(skill(r, "review")).toBeUndefined();
    expect(skill(rules({ allow: ["Skill"] }), "review")).toBe("allow");
    expect(skill(rules({ deny: ["Skill(deploy)"], allow: ["Skill"] }), "deploy")).toBe("deny");
    expect(rules({ allow: ["Skill(deploy)"] }).decide("Bash", { command: "deploy" })).toBeUndefined();
  });
});

describe("WebFetch and NotebookEdit rules", () => {
  const fetch = (r: PermissionRules, url: string) => r.decide("WebFetch", { url, prompt: "p" })?.behavior;

  test("WebFetch(domain:…) covers calls to that host; deny before allow; an unparsable url matches no domain", () => {
    const r = rules({ deny: ["WebFetch(domain:evil.test)"], ask: ["WebFetch(domain:*.ask.test)"], allow: ["WebFetch(domain:docs.test)"] });
    expect(fetch(r, "https://docs.test/page")).toBe("allow");
    expect(fetch(r, "https://evil.test/")).toBe("deny");
    expect(fetch(r, "https://a.ask.test/")).toBe("ask");
    expect(fetch(r, "https://other.test/")).toBeUndefined();
    expect(fetch(r, "not a url")).toBeUndefined();
    expect(rules({ deny: ["WebFetch"] }).decide("WebFetch", { url: "https://x.test/" })?.behavior).toBe("deny");
  });

  test("Edit(…) covers NotebookEdit by its notebook_path", () => {
    const r = rules({ deny: ["Edit(*.ipynb)"] });
    expect(r.decide("NotebookEdit", { notebook_path: "/p/nb.ipynb" })?.behavior).toBe("deny");
    expect(r.decide("NotebookEdit", { notebook_path: "/p/nb.txt" })).toBeUndefined();
  });
});
