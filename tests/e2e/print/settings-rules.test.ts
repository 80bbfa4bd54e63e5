/**
 * Permission rules from settings files in -p, through the real binary and the scripted model:
 * deny applies, ask refuses in Claude Code's words, allow changes nothing, a bare deny takes the
 * tool off the request; Bash, Read/Edit (each anchor) and MCP rule kinds.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { fixtureServer, writeMcpConfig } from "../../support/run.ts";
import { place, projectSettings, resultsOf, runPrint, trust, userSettings, localSettings } from "./settings-support.ts";

describe("Bash rules", () => {
  test("deny Bash(rm:*) stops rm -f victim.txt: the file survives and the model reads Claude Code's denial", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    projectSettings(p, { permissions: { deny: ["Bash(rm:*)"] } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "rm -f victim.txt" }))]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done\n");
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: "Permission to use Bash with command rm -f victim.txt has been denied." });
  });

  test("a denied part of a compound, wrapped or substituted command is still denied", async () => {
    const p = place();
    writeFileSync(join(p.dir, "victim.txt"), "x");
    projectSettings(p, { permissions: { deny: ["Bash(rm:*)"] } });
    const commands = [
      "echo a && rm victim.txt",
      "FOO=1 rm victim.txt",
      "echo $(rm victim.txt)",
      "sudo rm victim.txt",
      "sh -c 'rm victim.txt'",
      "echo x | xargs rm",
      "/bin/rm victim.txt",
    ];
    const run = await runPrint(
      p,
      commands.map((command) => reply(toolUse("Bash", { command }))),
    );
    expect(existsSync(join(p.dir, "victim.txt"))).toBe(true);
    expect(commands.map((_, i) => resultsOf(run, i)[0]!.is_error)).toEqual(commands.map(() => true));
  });

  test("an ask rule refuses in -p with Claude Code's words; a command it does not cover runs", async () => {
    const p = place();
    projectSettings(p, { permissions: { ask: ["Bash(echo:*)"] } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "echo hi" })), reply(toolUse("Bash", { command: "printf ok" }))]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: "Claude requested permissions to use Bash, but you haven't granted it yet." });
    expect(resultsOf(run, 1)[0]).toMatchObject({ content: "ok" });
  });

  test("deny beats allow whatever the files: a user deny and a local allow for the same command", async () => {
    const p = place();
    trust(p);
    userSettings(p, { permissions: { deny: ["Bash(touch:*)"] } });
    localSettings(p, { permissions: { allow: ["Bash(touch:*)"] } });
    const run = await runPrint(p, [reply(toolUse("Bash", { command: "touch made.txt" }))]);
    expect(existsSync(join(p.dir, "made.txt"))).toBe(false);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
  });

  test("a bare deny takes the tool off the request", async () => {
    const p = place();
    projectSettings(p, { permissions: { deny: ["Bash", "WebFetch(domain:example.com)", "Task"] } });
    const run = await runPrint(p, []);
    expect(run.stderr).toBe("");
    const names = run.requests[0]!.body.tools.map((t: { name: string }) => t.name);
    expect(names).not.toContain("Bash");
    expect(names).toContain("Read");
  });
});

describe("Read and Edit rules", () => {
  const secret = (dir: string) => {
    mkdirSync(join(dir, "secrets"), { recursive: true });
    writeFileSync(join(dir, "secrets", "key.txt"), "TOPSECRET");
  };

  test("Read(./secrets/**) keeps secrets/key.txt from Read, Grep, Glob and an @ mention", async () => {
    const p = place();
    secret(p.dir);
    projectSettings(p, { permissions: { deny: ["Read(./secrets/**)"] } });
    const run = await runPrint(
      p,
      [
        reply(toolUse("Read", { file_path: join(p.dir, "secrets/key.txt") })),
        reply(toolUse("Grep", { pattern: "T.PSECRET", path: "secrets" })),
        reply(toolUse("Glob", { pattern: "**", path: join(p.dir, "secrets") })),
      ],
      [],
      { prompt: "look at @secrets/key.txt" },
    );
    const denied = "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>";
    for (let i = 0; i < 3; i++) expect(resultsOf(run, i)[0]).toMatchObject({ is_error: true, content: denied });
    expect(JSON.stringify(run.requests.map((r) => r.body.messages))).not.toContain("TOPSECRET");
    expect(run.stderr).toContain("@secrets/key.txt: not attached");
  });

  test("a Grep or Glob over the project leaves out what a Read rule denies", async () => {
    const p = place();
    secret(p.dir);
    writeFileSync(join(p.dir, "open.txt"), "TOPSECRET is a word here too");
    projectSettings(p, { permissions: { deny: ["Read(./secrets/**)"] } });
    const run = await runPrint(p, [reply(toolUse("Grep", { pattern: "T.PSECRET", output_mode: "content" })), reply(toolUse("Glob", { pattern: "**/*.txt" }))]);
    const grep = String(resultsOf(run, 0)[0]!.content);
    expect(grep).toContain("open.txt");
    expect(grep).not.toContain("key.txt");
    const glob = String(resultsOf(run, 1)[0]!.content);
    expect(glob).toContain("open.txt");
    expect(glob).not.toContain("key.txt");
  });

  test("anchors: // absolute, ~/ home, / the project root for a project file, bare relative to cwd", async () => {
    const p = place();
    const home = join(p.dir, "home");
    for (const f of ["abs.txt", "home/h.txt", "root.txt", "sub/bare.env"]) {
      mkdirSync(join(p.dir, f, ".."), { recursive: true });
      writeFileSync(join(p.dir, f), "SECRET");
    }
    projectSettings(p, { permissions: { deny: [`Read(/${join(p.dir, "abs.txt")})`, "Read(~/h.txt)", "Read(/root.txt)", "Read(*.env)"] } });
    const files = ["abs.txt", "home/h.txt", "root.txt", "sub/bare.env"];
    const run = await runPrint(
      p,
      files.map((f) => reply(toolUse("Read", { file_path: join(p.dir, f) }))),
      [],
      { env: { HOME: home } },
    );
    expect(files.map((_, i) => resultsOf(run, i)[0]!.is_error)).toEqual(files.map(() => true));
  });

  test("a user file's /x is relative to its config folder, not the project (Claude Code's rule)", async () => {
    const p = place();
    writeFileSync(join(p.dir, "s1.txt"), "visible");
    userSettings(p, { permissions: { deny: ["Read(/s1.txt)"] } });
    const run = await runPrint(p, [reply(toolUse("Read", { file_path: join(p.dir, "s1.txt") }))]);
    expect(JSON.stringify(resultsOf(run, 0)[0]!.content)).toContain("visible");
  });

  test("Edit(...) covers Write and Edit", async () => {
    const p = place();
    writeFileSync(join(p.dir, "keep.md"), "old");
    projectSettings(p, { permissions: { deny: ["Edit(*.md)"] } });
    const run = await runPrint(p, [
      reply(toolUse("Write", { file_path: join(p.dir, "new.md"), content: "x" })),
      reply(toolUse("Edit", { file_path: join(p.dir, "keep.md"), old_string: "old", new_string: "new" })),
    ]);
    expect(existsSync(join(p.dir, "new.md"))).toBe(false);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
    expect(resultsOf(run, 1)[0]!.is_error).toBe(true);
  });
});

describe("MCP rules", () => {
  test("mcp__server bare deny removes the server's tools; mcp__server__tool denies one call", async () => {
    const p = place();
    writeMcpConfig(p.dir, { fx: fixtureServer(), other: fixtureServer() });
    projectSettings(p, { permissions: { deny: ["mcp__fx", "mcp__other__echo(x)"] } });
    const run = await runPrint(p, []);
    const names: string[] = run.requests[0]!.body.tools.map((t: { name: string }) => t.name);
    expect(names.some((n) => n.startsWith("mcp__fx__"))).toBe(false);
    expect(names.some((n) => n.startsWith("mcp__other__"))).toBe(true);
  });

  test("mcp__server__* in ask refuses each call of that server in -p", async () => {
    const p = place();
    writeMcpConfig(p.dir, { fx: fixtureServer() });
    projectSettings(p, { permissions: { ask: ["mcp__fx__*"] } });
    const run = await runPrint(p, [reply(toolUse("mcp__fx__echo", { text: "hi" }))]);
    expect(resultsOf(run, 0)[0]).toMatchObject({
      is_error: true,
      content: "Claude requested permissions to use mcp__fx__echo, but you haven't granted it yet.",
    });
  });
});
