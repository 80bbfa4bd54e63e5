/**
 * Settings files and their merge as pure steps: precedence, --setting-sources, list concatenation,
 * per-key env, managed-only keys, bad input lines, and the trust rule for a repository's files.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunSettings } from "../../../../lib/agent/policy/run-settings.ts";
import { SettingsFlagError } from "../../../../lib/agent/settings/files.ts";
import { tempDir } from "../../../support/run.ts";

function setup(files: Record<string, unknown>) {
  const root = tempDir();
  const cwd = join(root, "project");
  const config = join(root, "config");
  const managed = join(root, "managed");
  const paths: Record<string, string> = {
    managed: join(managed, "managed-settings.json"),
    local: join(cwd, ".claude", "settings.local.json"),
    project: join(cwd, ".claude", "settings.json"),
    user: join(config, "settings.json"),
  };
  mkdirSync(join(cwd, ".claude"), { recursive: true });
  mkdirSync(config, { recursive: true });
  mkdirSync(managed, { recursive: true });
  for (const [scope, value] of Object.entries(files)) writeFileSync(paths[scope]!, typeof value === "string" ? value : JSON.stringify(value));
  const lines: string[] = [];
  const load = (extra: { flag?: string; sources?: string; requireApproval?: boolean } = {}) =>
    RunSettings.load({ cwd, env: { CLAUDE_CONFIG_DIR: config, HOME: root }, managedDir: managed, warn: (l) => lines.push(l), ...extra });
  return { cwd, config, paths, lines, load };
}

describe("precedence and merging", () => {
  test("scalars: managed > --settings > local > project > user", () => {
    const s = setup({ user: { model: "u" }, project: { model: "p" }, local: { model: "l" }, managed: { model: "m" } });
    expect(s.load().effective.model?.value).toBe("m");
    const without = setup({ user: { model: "u" }, project: { model: "p" }, local: { model: "l" } });
    expect(without.load({ flag: '{"model":"f"}' }).effective.model?.value).toBe("f");
    expect(without.load().effective.model?.value).toBe("l");
    expect(setup({ user: { model: "u" }, project: { model: "p" } }).load().effective.model?.value).toBe("p");
  });

  test("rule lists concatenate, env merges key by key", () => {
    const s = setup({
      user: { permissions: { deny: ["A"] }, env: { X: "u", Y: "u" } },
      project: { permissions: { deny: ["B"], ask: ["C"] }, env: { Y: "p" } },
    });
    const e = s.load().effective;
    expect(e.rules.map((r) => `${r.behavior}:${r.text}`)).toEqual(["deny:B", "ask:C", "deny:A"]);
    expect(e.env).toEqual({ X: "u", Y: "p" });
  });

  test("--setting-sources picks the files; empty reads none; an unknown name is a usage error", () => {
    const s = setup({ user: { model: "u" }, project: { model: "p" } });
    expect(s.load({ sources: "user" }).effective.model?.value).toBe("u");
    expect(s.load({ sources: "" }).empty).toBe(true);
    expect(() => s.load({ sources: "user,team" })).toThrow(SettingsFlagError);
  });

  test("managed-only keys: rules and hooks only from managed files; a user's disableAllHooks keeps managed hooks", () => {
    const hooks = { PreToolUse: [{ hooks: [{ type: "command", command: "true" }] }] };
    const s = setup({
      managed: { allowManagedPermissionRulesOnly: true, permissions: { deny: ["M"] }, hooks },
      project: { permissions: { deny: ["P"] }, hooks },
      user: { disableAllHooks: true },
    });
    const loaded = s.load();
    expect(loaded.effective.rules.map((r) => r.text)).toEqual(["M"]);
    expect(loaded.hooks.map((h) => h.source)).toEqual([s.paths.managed]);
  });
});

describe("bad input and trust", () => {
  test("invalid JSON: one line with the position, the other files still apply", () => {
    const s = setup({ project: '{\n  "model": \n', user: { model: "u" } });
    expect(s.load().effective.model?.value).toBe("u");
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toStartWith(`${s.paths.project}: invalid JSON at line 3:1`);
  });

  test("--settings missing or not JSON throws SettingsFlagError", () => {
    const s = setup({});
    expect(() => s.load({ flag: "missing.json" })).toThrow(SettingsFlagError);
    expect(() => s.load({ flag: "{bad" })).toThrow(SettingsFlagError);
  });

  test("an untrusted project's allow rules are dropped with one line; trusted, they count", () => {
    const s = setup({ project: { permissions: { allow: ["Bash(ls:*)"], deny: ["Bash(rm:*)"] } } });
    expect(s.load().effective.rules.map((r) => r.text)).toEqual(["Bash(rm:*)"]);
    expect(s.lines[0]).toStartWith("Ignoring 1 permissions.allow entry from .claude/settings.json: this workspace has not been trusted.");
    writeFileSync(join(s.config, ".claude.json"), JSON.stringify({ projects: { [s.cwd]: { hasTrustDialogAccepted: true } } }));
    expect(s.load().effective.rules.map((r) => r.text)).toEqual(["Bash(rm:*)", "Bash(ls:*)"]);
  });

  test("a repository's env may not set PATH, proxies, LD_* or ANTHROPIC_*; the user's may", () => {
    const s = setup({ project: { env: { PATH: "/x", HTTPS_PROXY: "p", LD_PRELOAD: "l", ANTHROPIC_API_KEY: "k", OK: "1" } }, user: { env: { PATH: "/user" } } });
    expect(s.load().effective.env).toEqual({ PATH: "/user", OK: "1" });
    expect(s.lines).toEqual([".claude/settings.json: env PATH, HTTPS_PROXY, LD_PRELOAD, ANTHROPIC_API_KEY not applied: a project's settings may not set them"]);
  });
});
