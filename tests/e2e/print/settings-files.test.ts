/**
 * Where settings come from and how they combine, in -p through the real binary: each precedence
 * step (managed > --settings > local > project > user), --setting-sources, merge rules, bad input,
 * the trust rule for a repository's allow rules, `env` and `model`.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import {
  hook,
  hookScript,
  localSettings,
  managedAvailable,
  place,
  projectSettings,
  resultsOf,
  runPrint,
  runPrintManaged,
  trust,
  userSettings,
  writeJson,
} from "./settings-support.ts";

const modelOf = (run: { requests: { body: { model: string } }[] }) => run.requests[0]!.body.model;

describe("precedence, one step at a time (the model key)", () => {
  test("project beats user, local beats project, --settings beats local", async () => {
    const p = place();
    userSettings(p, { model: "claude-user-1" });
    expect(modelOf(await runPrint(p, []))).toBe("claude-user-1");
    projectSettings(p, { model: "claude-project-1" });
    expect(modelOf(await runPrint(p, []))).toBe("claude-project-1");
    localSettings(p, { model: "claude-local-1" });
    expect(modelOf(await runPrint(p, []))).toBe("claude-local-1");
    expect(modelOf(await runPrint(p, [], ["--settings", '{"model":"claude-flag-1"}']))).toBe("claude-flag-1");
    writeJson(join(p.dir, "extra.json"), { model: "claude-file-1" });
    expect(modelOf(await runPrint(p, [], ["--settings", "extra.json"]))).toBe("claude-file-1");
  });

  test("--model beats ANTHROPIC_MODEL, which beats the settings' model", async () => {
    const p = place();
    projectSettings(p, { model: "claude-project-1" });
    expect(modelOf(await runPrint(p, [], [], { env: { ANTHROPIC_MODEL: "claude-env-1" } }))).toBe("claude-env-1");
    expect(modelOf(await runPrint(p, [], ["--model", "claude-flag-2"], { env: { ANTHROPIC_MODEL: "claude-env-1" } }))).toBe("claude-flag-2");
  });

  test("an alias is resolved from the model table; an unknown one is one line and ignored", async () => {
    const p = place();
    userSettings(p, { model: "opus" });
    expect(modelOf(await runPrint(p, []))).toBe("claude-opus-5-5");
    userSettings(p, { model: "opusx" });
    const run = await runPrint(p, []);
    expect(modelOf(run)).toBe("claude-sonnet-4-6");
    expect(run.stderr).toBe(`${join(p.config, "settings.json")}: unknown model alias "opusx" in "model"; ignored\n`);
  });

  test.skipIf(!managedAvailable)("managed settings beat --settings, and allowManagedPermissionRulesOnly drops every other file's rules", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    projectSettings(p, { permissions: { deny: ["Bash(rm:*)"] } });
    const run = await runPrintManaged(
      p,
      { model: "claude-managed-1", allowManagedPermissionRulesOnly: true },
      [reply(toolUse("Bash", { command: "rm victim.txt" }))],
      ["--settings", '{"model":"claude-flag-1"}'],
    );
    expect(modelOf(run)).toBe("claude-managed-1");
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(false);
  });

  test.skipIf(!managedAvailable)("managed disableAllHooks ends every hook; a managed deny applies", async () => {
    const p = place();
    const ran = join(p.dir, "ran");
    projectSettings(p, { hooks: hook("PreToolUse", hookScript(`touch ${ran}`)) });
    const run = await runPrintManaged(p, { disableAllHooks: true, permissions: { deny: ["Bash(touch:*)"] } }, [
      reply(toolUse("Bash", { command: "touch made" })),
    ]);
    expect(existsSync(ran)).toBe(false);
    expect(existsSync(join(p.dir, "made"))).toBe(false);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
  });
});

test.skipIf(!managedAvailable)("managed disableBypassPermissionsMode: --permission-mode bypassPermissions falls back to default, with one line", async () => {
  const p = place();
  const run = await runPrintManaged(
    p,
    { permissions: { disableBypassPermissionsMode: "disable" } },
    [reply(toolUse("Bash", { command: "touch made" }))],
    ["--permission-mode", "bypassPermissions"],
  );
  expect(existsSync(join(p.dir, "made"))).toBe(false);
  expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
  expect(run.stderr).toBe("bypassPermissions is disabled by managed settings (disableBypassPermissionsMode); using the default permission mode\n");
});

describe("--setting-sources and merging", () => {
  test("--setting-sources user reads no project file; an empty list reads none of the three", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    projectSettings(p, { permissions: { deny: ["Bash(rm:*)"] } });
    userSettings(p, { model: "claude-user-1" });
    const user = await runPrint(p, [], ["--setting-sources", "user"]);
    expect(modelOf(user)).toBe("claude-user-1");
    const none = await runPrint(p, [reply(toolUse("Bash", { command: "rm victim.txt" }))], ["--setting-sources", ""]);
    expect(modelOf(none)).toBe("claude-sonnet-4-6");
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(false);
  });

  test("deny lists concatenate across files; env merges key by key, the higher file winning", async () => {
    const p = place();
    userSettings(p, { permissions: { deny: ["Bash(rm:*)"] }, env: { A_VAR: "user", B_VAR: "user" } });
    projectSettings(p, { permissions: { deny: ["Bash(touch:*)"] }, env: { B_VAR: "project" } });
    const run = await runPrint(p, [
      reply(toolUse("Bash", { command: "rm -f nothing" })),
      reply(toolUse("Bash", { command: "touch nothing" })),
      reply(toolUse("Bash", { command: 'echo "$A_VAR $B_VAR"' })),
    ]);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
    expect(resultsOf(run, 1)[0]!.is_error).toBe(true);
    expect(resultsOf(run, 2)[0]).toMatchObject({ content: "user project" });
  });
});

describe("bad input", () => {
  test("a file that is not JSON is one line with its position; the other files still apply, exit 0", async () => {
    const p = place();
    mkdirSync(join(p.dir, ".claude"));
    writeFileSync(join(p.dir, ".claude", "settings.json"), '{\n  "permissions": {\n');
    userSettings(p, { model: "claude-user-1" });
    const run = await runPrint(p, []);
    expect(run.code).toBe(0);
    expect(modelOf(run)).toBe("claude-user-1");
    expect(run.stderr).toMatch(new RegExp(`^${join(p.dir, ".claude/settings.json")}: invalid JSON at line 3:1: .*; the file is ignored\n$`));
  });

  test("a key of the wrong type is one line naming it; the file's other keys apply", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    projectSettings(p, { model: 5, permissions: { deny: ["Bash(rm:*)"], allow: "Bash" } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "rm victim.txt" }))]);
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(run.stderr).toContain('"model" must be a string; ignored');
    expect(run.stderr).toContain('"permissions.allow" must be an array of rule strings; ignored');
  });

  test("an invalid rule, an unknown event and another handler type are one line each; unknown keys are silent", async () => {
    const p = place();
    projectSettings(p, {
      someFutureKey: { x: 1 },
      permissions: { deny: ["Bash(unclosed", "Bash(rm:*)"] },
      hooks: { PreToolUze: [], PreToolUse: [{ hooks: [{ type: "http", url: "http://127.0.0.1:1" }] }] },
    });
    const run = await runPrint(p, []);
    const file = join(p.dir, ".claude/settings.json");
    expect(run.stderr.split("\n").filter(Boolean)).toEqual([
      `${file}: permissions.deny: malformed permission rule "Bash(unclosed" denies every Bash call`,
      `${file}: hooks.PreToolUze: unknown hook event "PreToolUze"; ignored`,
      `${file}: hooks.PreToolUse[0]: hooks of type "http" are not supported (only "command"); ignored`,
    ]);
    expect(run.code).toBe(0);
  });

  test("--settings with a missing file or bad JSON is a usage error, exit 2, before any model call", async () => {
    const p = place();
    const missing = await runPrint(p, [], ["--settings", "nope.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toStartWith(`error: --settings: cannot read ${join(p.dir, "nope.json")}`);
    const bad = await runPrint(p, [], ["--settings", "{nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toStartWith("error: --settings: invalid JSON");
    expect(missing.requests.length + bad.requests.length).toBe(0);
  });

  test("defaultMode plan in a file is for the session and host mode: -p says nothing and still runs every tool", async () => {
    const p = place();
    userSettings(p, { permissions: { defaultMode: "plan" } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "echo ran" }))]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "ran" });
    expect(run.stderr).toBe("");
  });
});

describe("trust", () => {
  const allowEcho = { permissions: { allow: ["Bash(echo:*)"] } };
  const echo = [reply(toolUse("Bash", { command: "echo allowed" }))];

  test("an untrusted folder's allow rules are ignored with Claude Code's warning (--permission-mode default refuses)", async () => {
    const p = place();
    projectSettings(p, allowEcho);
    const run = await runPrint(p, echo, ["--permission-mode", "default"]);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
    expect(run.stderr).toBe(
      `Ignoring 1 permissions.allow entry from .claude/settings.json: this workspace has not been trusted. Run the agent interactively here once and accept the trust question, or set projects["${p.dir}"].hasTrustDialogAccepted: true in ${join(p.config, ".claude.json")}.\n`,
    );
  });

  test("in a trusted folder the same rule allows the call", async () => {
    const p = place();
    projectSettings(p, allowEcho);
    trust(p);
    const run = await runPrint(p, echo, ["--permission-mode", "default"]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "allowed" });
    expect(run.stderr).toBe("");
  });

  test("MCP_REQUIRE_APPROVAL=1 holds an untrusted project's hooks and env; its deny rules still apply", async () => {
    const p = place();
    const ran = join(p.dir, "ran");
    writeFileSync(join(p.dir, "victim.txt"), "x");
    projectSettings(p, { env: { P_VAR: "set" }, hooks: hook("PreToolUse", hookScript(`touch ${ran}`)), permissions: { deny: ["Bash(rm:*)"] } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: 'echo "[$P_VAR]"' })), reply(toolUse("Bash", { command: "rm victim.txt" }))], [], {
      env: { MCP_REQUIRE_APPROVAL: "1" },
    });
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "[]" });
    expect(existsSync(ran)).toBe(false);
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(run.stderr).toContain("MCP_REQUIRE_APPROVAL=1: ignoring hooks, env of .claude/settings.json");
  });
});

describe("env", () => {
  test("a project may not set PATH or ANTHROPIC_*: one line names what was refused", async () => {
    const p = place();
    projectSettings(p, { env: { PATH: "/nowhere", ANTHROPIC_BASE_URL: "http://127.0.0.1:1", OK_VAR: "ok" } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: 'echo "$OK_VAR"' }))]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "ok" });
    expect(run.stderr).toBe(".claude/settings.json: env PATH, ANTHROPIC_BASE_URL not applied: a project's settings may not set them\n");
  });

  test("the process's ANTHROPIC_BASE_URL wins over the user's settings env; other user env reaches hooks", async () => {
    const p = place();
    const out = join(p.dir, "hook-env");
    userSettings(p, {
      env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:1", HOOK_VAR: "from-user" },
      hooks: hook("SessionEnd", hookScript(`echo "$HOOK_VAR" > ${out}`)),
    });
    const run = await runPrint(p, []);
    expect(run.stdout).toBe("done\n");
    expect(Bun.file(out).size).toBeGreaterThan(0);
    expect((await Bun.file(out).text()).trim()).toBe("from-user");
  });
});
