/**
 * Read and Edit rules reach into Bash (permissions/bash/files.ts): an output redirection, `tee`,
 * `cp`/`mv` destinations, `sed -i` and `dd of=` are Edits of their target; `cat`, `head`, `grep`
 * paths, `cp` sources, `source` and input redirections are Reads. An allow rule for a program does
 * not carry a write outside the working directory, and `[a]lways` offers no rule for a writing command.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import { alwaysFor } from "../../../../lib/agent/permissions/always-rule.ts";
import type { SettingsFile } from "../../../../lib/agent/settings/files.ts";
import type { Behavior } from "../../../../lib/agent/settings/merge.ts";
import { compileRules, PermissionRules } from "../../../../lib/agent/permissions/rules.ts";

beforeAll(() => loadBashGrammar());

const file: SettingsFile = { scope: "project", path: "/p/.claude/settings.json", root: "/p", doc: {} };
const ctx = { cwd: "/p", home: "/home/u", warn: () => {} };
function rules(spec: Partial<Record<Behavior, string[]>>): PermissionRules {
  const texts = (["deny", "ask", "allow"] as const).flatMap((behavior) => (spec[behavior] ?? []).map((text) => ({ text, behavior, file })));
  return new PermissionRules(compileRules(texts, ctx), ctx);
}
const bash = (r: PermissionRules, command: string) => r.decide("Bash", { command })?.behavior;

describe("redirections are writes: an allow rule for the program does not carry one outside the working directory", () => {
  const r = rules({ allow: ["Bash(echo:*)", "Bash(tee:*)", "Bash(cp:*)", "Bash(sed:*)", "Bash(printf:*)"] });
  test.each([
    "echo x > /tmp/elsewhere.txt",
    "echo x >> ~/.bashrc",
    "echo x &> /etc/motd",
    "printf x | tee /etc/hosts",
    "cp a /tmp/b",
    "sed -i s/a/b/ /etc/hosts",
    "echo x > $OUT",
    // /usr/bin/time after a wrapper writes its -o file itself.
    "nice time -o ~/.bashrc echo x",
    "command time --output=/etc/motd echo x",
    "timeout 5 time -ao /tmp/log echo x",
    "stdbuf -oL time --output /tmp/log echo x",
  ])("%p is not allowed", (c) => expect(bash(r, c)).toBeUndefined());
  test.each([
    "echo x > notes.txt",
    "echo x > /p/sub/notes.txt",
    "echo x > /dev/null",
    "echo x 2>&1",
    "echo x >&2",
    "printf x | tee out.log",
    "cp a b",
    "echo x 2>/dev/null",
  ])("%p is allowed", (c) => expect(bash(r, c)).toBe("allow"));
  test("an Edit allow rule carries a write outside", () => {
    expect(bash(rules({ allow: ["Bash(echo:*)", "Edit(//tmp/**)"] }), "echo x > /tmp/y")).toBe("allow");
  });
  test("a bare Bash allow allows everything, as before", () => {
    expect(bash(rules({ allow: ["Bash"] }), "echo x > /tmp/y")).toBe("allow");
  });
});

describe("Edit deny rules cover Bash writes", () => {
  const r = rules({ deny: ["Edit(./protected/**)"] });
  test.each([
    "echo x > protected/a",
    "echo x >> /p/protected/a",
    "printf x | tee -a protected/log",
    "cp a protected/",
    "cp -t protected a",
    "mv protected/a elsewhere",
    "sed -i s/x/y/ protected/f",
    "dd if=a of=protected/f",
    "echo x > $F",
    "> protected/a true",
    "nice time -o protected/a true",
  ])("%p is denied", (c) => expect(bash(r, c)).toBe("deny"));
  test.each(["cat protected/a", "echo x > other.txt", "cp protected/a b", "echo protected/a"])("%p is not", (c) => expect(bash(r, c)).toBeUndefined());
});

describe("Read deny rules cover Bash reads", () => {
  const r = rules({ deny: ["Read(./secrets/**)"] });
  test.each([
    "cat secrets/key.txt",
    "head -n 1 secrets/key.txt",
    "tail -f /p/secrets/key.txt",
    "less secrets/key.txt",
    "grep TOKEN secrets/key.txt",
    "rg -e TOKEN secrets",
    "cp secrets/key.txt /tmp/x",
    "source secrets/env",
    ". secrets/env",
    "cat < secrets/key.txt",
    "< secrets/key.txt wc -l",
    "cat $F",
    "echo x | sudo cat secrets/key.txt",
    "bash -c 'cat secrets/key.txt'",
  ])("%p is denied", (c) => expect(bash(r, c)).toBe("deny"));
  test.each(["cat notes.txt", "grep secrets notes.txt", "echo secrets/key.txt", "ls secrets"])("%p is not", (c) => expect(bash(r, c)).toBeUndefined());
});

describe("relative paths are the shell's", () => {
  const r = rules({ deny: ["Read(./secrets/**)", "Edit(./protected/**)"] });
  test.each([
    "cd secrets && cat key.txt",
    "cd /p/secrets; head key.txt",
    "pushd secrets && grep x key.txt",
    "cd $DIR && cat key.txt",
    "cd - && cat key.txt",
    "cd protected && echo x > a",
  ])("%p is denied", (c) => expect(bash(r, c)).toBe("deny"));
  test.each(["cd src && cat a.txt", "cd /tmp && echo x > a"])("%p is not", (c) => expect(bash(r, c)).toBeUndefined());
  test("a cd in an earlier call stays: the shell's directory is where relative paths start", () => {
    expect(r.decide("Bash", { command: "cat key.txt" }, undefined, "/p/secrets")?.behavior).toBe("deny");
    expect(r.decide("Bash", { command: "cat key.txt" }, undefined, "/p")?.behavior).toBeUndefined();
  });
});

describe("[a]lways", () => {
  test.each([
    ["echo hi", "Bash(echo:*)"],
    ["npm test 2>&1", "Bash(npm test:*)"],
    ["echo hi > /dev/null", "Bash(echo:*)"],
  ])("%p offers %p", (command, rule) => expect(alwaysFor("/p", "Bash", { command })).toMatchObject({ rule }));
  test.each(["echo hi > notes.txt", "echo hi >> /tmp/x", "printf x | tee out", "cp a b", "sed -i s/a/b/ f"])("%p offers no rule", (command) =>
    expect(alwaysFor("/p", "Bash", { command })).toBeUndefined(),
  );
});
