/**
 * Tab completion's pure pieces: commands, files, resources, resource templates (RFC 6570 URI
 * templates, MCP 2025-11-25 server/resources#resource-templates) and the values a server
 * completes for a template's variable (server/utilities/completion), over a fake source.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commonPrefix, completionRows, createCompleter, type Completion, type TemplateSource } from "../../../../../lib/cli/repl/prompt/complete.ts";
import { literalPrefix, templatePosition } from "../../../../../lib/mcp/protocol/uri-template.ts";
import { tempDir } from "../../../../support/run.ts";

/** The result of one Tab press as [insert, shown]. */
const tab = async (complete: ReturnType<typeof createCompleter>, line: string) => {
  const c: Completion = await complete(line);
  return [c.insert, c.shown];
};

describe("completion", () => {
  const dir = tempDir();
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "main.ts"), "");
  writeFileSync(join(dir, "src", "util.ts"), "");
  writeFileSync(join(dir, "my notes.txt"), "");
  writeFileSync(join(dir, ".hidden"), "");
  const complete = createCompleter({
    cwd: dir,
    commands: () => ["help", "mcp", "model", "mcp__fx__greet"],
    resources: () => ["fx:fixture://hello", "fx:fixture://blob"],
  });

  test("slash commands by prefix: one is inserted with a space, several are listed", async () => {
    expect(await tab(complete, "/mo")).toEqual(["/model ", []]);
    expect(await tab(complete, "/mc")).toEqual(["/mcp", ["/mcp", "/mcp__fx__greet"]]);
    expect(await tab(complete, "/zz")).toEqual(["/zz", []]);
    expect(await tab(complete, "/help me")).toEqual(["/help me", []]);
  });

  test("@ files: folders end in / (no space after), hidden only when asked, spaces quoted", async () => {
    expect(await tab(complete, "look at @sr")).toEqual(["@src/", []]);
    expect(await tab(complete, "look at @src/u")).toEqual(["@src/util.ts ", []]);
    expect(await tab(complete, "@my")).toEqual(['@"my notes.txt" ', []]);
    expect(await tab(complete, "@.h")).toEqual(["@.hidden ", []]);
    expect((await tab(complete, "@"))[1]).not.toContain("@.hidden");
    expect(await tab(complete, "@nope/x")).toEqual(["@nope/x", []]);
  });

  test("@ MCP resources as server:uri", async () => {
    expect(await tab(complete, "read @fx:fixture://h")).toEqual(["@fx:fixture://hello ", []]);
    expect(await tab(complete, "@fx")).toEqual(["@fx:fixture://", ["@fx:fixture://hello", "@fx:fixture://blob"]]);
  });

  test("text without a command or mention completes nothing", async () => {
    expect(await tab(complete, "hello wor")).toEqual(["hello wor", []]);
  });
});

describe("resource templates", () => {
  const asked: unknown[] = [];
  const templates: TemplateSource[] = [
    { server: "fx", uriTemplate: "fixture://notes/{name}", completes: true },
    { server: "fx", uriTemplate: "fixture://users/{id}/profile", completes: true },
    { server: "plain", uriTemplate: "plain://docs/{+path}", completes: false },
  ];
  const values: Record<string, string[]> = { name: ["alpha", "alpine", "beta"], id: ["41", "42", "7"] };
  const complete = createCompleter({
    cwd: tempDir(),
    commands: () => [],
    resources: () => ["fx:fixture://hello"],
    templates: () => templates,
    completeValue: async (t, variable, value, context) => {
      asked.push({ uri: t.uriTemplate, variable, value, context });
      if (value === "boom") throw new Error("server error");
      return values[variable]!.filter((v) => v.startsWith(value));
    },
  });

  test("templates are listed as written next to resources, and insert their text before the first {", async () => {
    expect(await tab(complete, "@fx:fixture://")).toEqual([
      "@fx:fixture://",
      ["@fx:fixture://hello", "@fx:fixture://notes/{name}", "@fx:fixture://users/{id}/profile"],
    ]);
    expect(await tab(complete, "@fx:fixture://n")).toEqual(["@fx:fixture://notes/", []]);
    expect(await tab(complete, "@pl")).toEqual(["@plain:plain://docs/", []]);
    // Two templates sharing text past a variable: what they share stops at the first {.
    expect(literalPrefix("fixture://users/{id}/profile")).toBe("fixture://users/");
  });

  test("inside a variable the server's values are offered; one is inserted with the rest of the template", async () => {
    asked.length = 0;
    expect(await tab(complete, "@fx:fixture://notes/")).toEqual([
      "@fx:fixture://notes/",
      ["@fx:fixture://notes/alpha", "@fx:fixture://notes/alpine", "@fx:fixture://notes/beta"],
    ]);
    expect(await tab(complete, "@fx:fixture://notes/alpi")).toEqual(["@fx:fixture://notes/alpine ", []]);
    expect(await tab(complete, "@fx:fixture://users/4")).toEqual([
      "@fx:fixture://users/4",
      ["@fx:fixture://users/41/profile", "@fx:fixture://users/42/profile"],
    ]);
    expect(await tab(complete, "@fx:fixture://users/7")).toEqual(["@fx:fixture://users/7/profile ", []]);
    expect(asked).toEqual([
      { uri: "fixture://notes/{name}", variable: "name", value: "", context: {} },
      { uri: "fixture://notes/{name}", variable: "name", value: "alpi", context: {} },
      { uri: "fixture://users/{id}/profile", variable: "id", value: "4", context: {} },
      { uri: "fixture://users/{id}/profile", variable: "id", value: "7", context: {} },
    ]);
  });

  test("a server without completions is not asked, a failed or empty answer offers no value: the template is listed as a reminder", async () => {
    asked.length = 0;
    expect(await tab(complete, "@plain:plain://docs/a")).toEqual(["@plain:plain://docs/a", ["@plain:plain://docs/{+path}"]]);
    expect(await tab(complete, "@fx:fixture://notes/boom")).toEqual(["@fx:fixture://notes/boom", ["@fx:fixture://notes/{name}"]]);
    expect(await tab(complete, "@fx:fixture://notes/zz")).toEqual(["@fx:fixture://notes/zz", ["@fx:fixture://notes/{name}"]]);
    expect(asked).toHaveLength(2);
  });
});

describe("URI template positions", () => {
  test("in a literal, in a variable (with the values before it as context), past the template", () => {
    expect(templatePosition("a://x/{id}/y", "a://")).toMatchObject({ kind: "literal", text: "a://x/", shown: "a://x/{id}/y", final: false });
    expect(templatePosition("a://x/{id}/y", "a://x/1")).toMatchObject({ kind: "variable", variable: "id", value: "1", context: {} });
    expect(templatePosition("a://{org}/{repo}", "a://acme/we")).toMatchObject({ kind: "variable", variable: "repo", value: "we", context: { org: "acme" } });
    expect(templatePosition("a://x/{id}/y", "a://x/1/")).toMatchObject({ kind: "literal", text: "a://x/1/y", final: true });
    expect(templatePosition("a://x/{id}/y", "a://x/1/y")).toBeUndefined();
    expect(templatePosition("a://x/{id}", "b://")).toBeUndefined();
  });

  test("values are percent-encoded; reserved expansion keeps slashes; operators lead their values", () => {
    const simple = templatePosition("a://n/{name}", "a://n/");
    expect(simple?.kind === "variable" && simple.fill("a b/c")).toEqual({ text: "a://n/a%20b%2Fc", shown: "a://n/a%20b%2Fc", final: true });
    const reserved = templatePosition("file:///{+path}", "file:///");
    expect(reserved?.kind === "variable" && reserved.fill("src/main.ts").text).toBe("file:///src/main.ts");
    expect(templatePosition("a://s{?q}", "a://s?q=he")).toMatchObject({ kind: "variable", variable: "q", value: "he" });
    expect(templatePosition("a://s{?q}", "a://")).toMatchObject({ kind: "literal", text: "a://s?q=", shown: "a://s{?q}" });
  });
});

describe("completion listing", () => {
  test("common prefix; candidates in columns, capped with a count", () => {
    expect(commonPrefix(["/mcp", "/mcp__fx__a", "/model"])).toBe("/m");
    expect(completionRows(["aa", "bb", "cc"], 80)).toEqual(["aa  bb  cc"]);
    const many = Array.from({ length: 100 }, (_, i) => `item${i}`);
    const rows = completionRows(many, 20);
    expect(rows).toHaveLength(5);
    expect(rows.at(-1)).toBe("… 92 more");
  });
});
