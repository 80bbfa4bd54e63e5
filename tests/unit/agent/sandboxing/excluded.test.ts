/**
 * excludedCommands on the shell grammar, and the sandbox's two facts in the one permission decision.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadBashGrammar } from "../../../../lib/agent/permissions/bash/grammar.ts";
import { excludedFromSandbox } from "../../../../lib/agent/sandboxing/excluded.ts";
import { decide, escapeText } from "../../../../lib/agent/policy/decide.ts";

beforeAll(async () => {
  await loadBashGrammar();
});

describe("excludedFromSandbox", () => {
  const patterns = ["docker:*", "Bash(npm run *)", "cat"];
  test("every simple command of a pipe or chain must match", () => {
    expect(excludedFromSandbox("docker ps", patterns)).toBe(true);
    expect(excludedFromSandbox("docker ps | cat", patterns)).toBe(true);
    expect(excludedFromSandbox("docker ps && npm run build", patterns)).toBe(true);
    expect(excludedFromSandbox("docker ps && rm -rf x", patterns)).toBe(false);
    expect(excludedFromSandbox("dockerx ps", patterns)).toBe(false);
  });

  test("cd, substitutions, variables, output redirects and what does not parse stay sandboxed", () => {
    expect(excludedFromSandbox("cd /tmp && docker ps", patterns)).toBe(false);
    expect(excludedFromSandbox("docker run $(cat img)", patterns)).toBe(false);
    expect(excludedFromSandbox("docker run $IMG", patterns)).toBe(false);
    expect(excludedFromSandbox("docker ps > out.txt", patterns)).toBe(false);
    expect(excludedFromSandbox("docker ps (", patterns)).toBe(false);
    expect(excludedFromSandbox("docker ps", [])).toBe(false);
  });

  test("a looked-through wrapper that writes a file itself (time -o after another wrapper) stays sandboxed", () => {
    expect(excludedFromSandbox("nice docker ps", patterns)).toBe(true);
    expect(excludedFromSandbox("nice time -o ~/.bashrc docker ps", patterns)).toBe(false);
    expect(excludedFromSandbox("command time --output=/etc/motd docker ps", patterns)).toBe(false);
  });
});

describe("decide with the sandbox's facts", () => {
  const bash = { name: "Bash", asksPermission: true };
  const base = { tool: bash, input: { command: "ls" }, flagAllows: false };
  test("autoAllowBashIfSandboxed skips the mode's question only; deny and ask rules still apply", () => {
    expect(decide({ ...base, mode: "default", sandbox: { escape: false, autoAllow: true } })).toEqual({ behavior: "allow" });
    expect(decide({ ...base, mode: "default", rule: { behavior: "deny", path: false }, sandbox: { escape: false, autoAllow: true } }).behavior).toBe("deny");
    expect(decide({ ...base, mode: "default", rule: { behavior: "ask", path: false }, sandbox: { escape: false, autoAllow: true } }).behavior).toBe("ask");
  });

  test("leaving the sandbox always asks, even past an allow rule or with no mode; dontAsk refuses it", () => {
    const leaving = { escape: true, autoAllow: false };
    expect(decide({ ...base, mode: undefined, flagAllows: true, sandbox: leaving })).toEqual({ behavior: "ask", message: escapeText, forced: true });
    expect(decide({ ...base, mode: "bypassPermissions", rule: { behavior: "allow", path: false }, sandbox: leaving }).behavior).toBe("ask");
    expect(decide({ ...base, mode: "dontAsk", sandbox: leaving })).toEqual({ behavior: "deny", message: escapeText });
  });
});
