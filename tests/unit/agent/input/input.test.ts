import { describe, expect, test } from "bun:test";
import { shellWords } from "../../../../lib/agent/input/shell-words.ts";
import { expandCommand } from "../../../../lib/agent/input/custom-commands.ts";
import { mapPromptArguments, promptUsage } from "../../../../lib/agent/input/mcp-prompts.ts";

describe("shellWords", () => {
  test("quotes keep spaces; nothing is evaluated", () => {
    expect(shellWords(`"Bug in login" high`)).toEqual(["Bug in login", "high"]);
    expect(shellWords(`a 'b c' "d\\"e" $(x) $HOME`)).toEqual(["a", "b c", 'd"e', "$(x)", "$HOME"]);
    expect(shellWords(`  `)).toEqual([]);
    expect(shellWords(`""`)).toEqual([""]);
  });
});

describe("expandCommand", () => {
  test("$ARGUMENTS and $n are plain text, even when they hold $ patterns", () => {
    expect(expandCommand("Fix $1 in $2: $ARGUMENTS", "a $& b", ["a", "$&", "b"])).toBe("Fix a in $&: a $& b");
  });
  test("a body that ignores its arguments still gets them", () => {
    expect(expandCommand("Do it.", "now", ["now"])).toBe("Do it.\n\nARGUMENTS: now");
  });
});

describe("prompt arguments", () => {
  const prompt = { name: "create", arguments: [{ name: "title", required: true }, { name: "priority" }] };
  test("positional, extra words joining the last", () => {
    expect(mapPromptArguments(prompt, ["Bug in login", "high", "really"])).toEqual({ args: { title: "Bug in login", priority: "high really" }, missing: [] });
  });
  test("absent optional arguments are omitted; missing required ones reported", () => {
    expect(mapPromptArguments(prompt, ["t"])).toEqual({ args: { title: "t" }, missing: [] });
    expect(mapPromptArguments(prompt, [])).toEqual({ args: {}, missing: ["title"] });
    expect(promptUsage("mcp__jira__create", prompt)).toBe("usage: /mcp__jira__create <title> [priority]");
  });
});
