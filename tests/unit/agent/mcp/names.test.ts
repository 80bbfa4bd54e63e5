import { describe, expect, test } from "bun:test";
import {
  MAX_TOOL_NAME_LENGTH,
  promptCommandName,
  promptCommands,
  resourceMention,
  serverRuleName,
  ToolNamer,
  toolRuleName,
} from "../../../../lib/agent/mcp/names.ts";

const API_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("ToolNamer", () => {
  test("mcp__<server>__<tool> when already valid", () => {
    expect(new ToolNamer().name("github", "create_issue")).toBe("mcp__github__create_issue");
  });

  test("characters outside [A-Za-z0-9_-] become _", () => {
    const namer = new ToolNamer();
    expect(namer.name("my.server", "dotted.name")).toBe("mcp__my_server__dotted_name");
    expect(namer.name("srv", "has space/é")).toBe("mcp__srv__has_space__");
  });

  test("names over 64 characters: readable prefix + stable hash, still valid", () => {
    const tool = "a_tool_name_that_is_far_too_long_for_the_messages_api_".padEnd(100, "x");
    const a = new ToolNamer().name("fixture", tool);
    const b = new ToolNamer().name("fixture", tool);
    expect(a).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(a).toMatch(API_NAME);
    expect(a).toStartWith("mcp__fixture__a_tool_name_that_is_far_too_long");
    expect(a).toMatch(/_[0-9a-f]{8}$/);
    expect(b).toBe(a); // Stable across namers (and so across runs).
  });

  test("long names that share a prefix still differ", () => {
    const namer = new ToolNamer();
    const long = "x".repeat(80);
    expect(namer.name("s", long + "1")).not.toBe(namer.name("s", long + "2"));
  });

  test("the same pair asked twice → the same name", () => {
    const namer = new ToolNamer();
    expect(namer.name("s", "a.b")).toBe(namer.name("s", "a.b"));
  });

  test("collisions after sanitising get a distinguishing suffix; the first keeps the plain name", () => {
    const namer = new ToolNamer();
    expect(namer.name("s", "a.b")).toBe("mcp__s__a_b");
    expect(namer.name("s", "a_b")).toBe("mcp__s__a_b_2");
    expect(namer.name("s", "a b")).toBe("mcp__s__a_b_3");
    expect(namer.name("s", "a_b")).toBe("mcp__s__a_b_2");
  });

  test("server names containing __ cannot alias another pair, and lookup maps back by table", () => {
    const namer = new ToolNamer();
    const one = namer.name("x__y", "z");
    const two = namer.name("x", "y__z");
    expect(one).toBe("mcp__x__y__z");
    expect(two).not.toBe(one);
    expect(namer.lookup(one)).toEqual({ server: "x__y", tool: "z" });
    expect(namer.lookup(two)).toEqual({ server: "x", tool: "y__z" });
    expect(namer.lookup("mcp__nobody__home")).toBeUndefined();
  });

  test("collision suffixes on 64-character names keep the limit", () => {
    const namer = new ToolNamer();
    const long = "y".repeat(70);
    const names = [namer.name("s", long), namer.name("s.", long), namer.name("s ", long)];
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n).toMatch(API_NAME);
  });

  test("many random pairs: all valid, all distinct", () => {
    const namer = new ToolNamer();
    const alphabet = "ab._ -é😀Z9";
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = () => Array.from({ length: 1 + rand(90) }, () => alphabet[rand(alphabet.length)]).join("");
    const pairs = new Set<string>();
    const names = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const [server, tool] = [word(), word()];
      const key = JSON.stringify([server, tool]);
      const name = namer.name(server, tool);
      expect(name).toMatch(API_NAME);
      if (!pairs.has(key)) names.add(name);
      pairs.add(key);
    }
    expect(names.size).toBe(pairs.size);
  });
});

describe("promptCommandName", () => {
  test("keeps characters, replaces whitespace", () => {
    expect(promptCommandName("jira", "create")).toBe("mcp__jira__create");
    expect(promptCommandName("my.srv", "make issue\tnow")).toBe("mcp__my.srv__make_issue_now");
  });

  test("a slash or a control character becomes _ too, in the server's name as in the prompt's", () => {
    expect(promptCommandName("fx", "a/b")).toBe("mcp__fx__a_b");
    expect(promptCommandName("my server", "x\u0007y")).toBe("mcp__my_server__x_y");
  });
});

describe("promptCommands", () => {
  test("every prompt gets a command word; a typeable name keeps it, a rewritten one that collides gets _2", () => {
    const prompts = [{ name: "a/b" }, { name: "weekly report" }, { name: "a_b" }, { name: "a b" }];
    const table = promptCommands("fx", prompts);
    expect([...table].map(([command, p]) => [command, p.name])).toEqual([
      ["mcp__fx__a_b_2", "a/b"],
      ["mcp__fx__weekly_report", "weekly report"],
      ["mcp__fx__a_b", "a_b"],
      ["mcp__fx__a_b_3", "a b"],
    ]);
    for (const command of table.keys()) expect(command).toMatch(/^[^\s/]+$/);
  });
});

describe("other user-visible names", () => {
  test("resource mentions and tool rules use the names as the config and the server wrote them", () => {
    expect(resourceMention("fx", "fixture://hello")).toBe("fx:fixture://hello");
    expect(serverRuleName("my.server")).toBe("mcp__my.server");
    expect(toolRuleName("my.server", "dotted.name")).toBe("mcp__my.server__dotted.name");
  });
});
