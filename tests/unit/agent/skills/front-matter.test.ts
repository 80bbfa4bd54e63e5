/**
 * SKILL.md front matter as Claude Code reads it (lib/agent/skills/front-matter.ts): fences,
 * YAML through the yaml package, the quoting retry, empty metadata for YAML that cannot parse,
 * and the first-line description fallback.
 */
import { describe, expect, test } from "bun:test";
import { fallbackDescription, parseSkillFile } from "../../../../lib/agent/skills/front-matter.ts";

describe("parseSkillFile", () => {
  test("a fenced block is YAML, the rest is the body", () => {
    const f = parseSkillFile("---\nname: a\ndescription: 'x: y'\nallowed-tools: [Bash, Read]\n---\nBody\n");
    expect(f).toEqual({ meta: { name: "a", description: "x: y", "allowed-tools": ["Bash", "Read"] }, body: "Body\n", fenced: true });
  });

  test("no fence, or an unclosed one: the whole file is the body", () => {
    expect(parseSkillFile("Just text\n")).toEqual({ meta: {}, body: "Just text\n", fenced: false });
    expect(parseSkillFile("---\ndescription: x\nno close\n")).toMatchObject({ meta: {}, fenced: false });
  });

  test("values YAML reads as flow syntax parse on the retry with quotes, flagged as repaired", () => {
    const f = parseSkillFile("---\ndescription: [unclosed\nfoo: a: b\n---\nbody");
    expect(f.meta).toEqual({ description: "[unclosed", foo: "a: b" });
    expect(f.repaired).toBe(true);
  });

  test("YAML that cannot parse gives empty metadata and the error; the body is kept", () => {
    const f = parseSkillFile("---\ndescription: ok\n  bad: indent\n- item\n---\nFirst\n");
    expect(f.meta).toEqual({});
    expect(f.body).toBe("First\n");
    expect(f.error).toStartWith("YAML Parse error: ");
    expect(f.repaired).toBeUndefined();
  });

  test("a front matter that is not a mapping is empty metadata", () => {
    expect(parseSkillFile("---\n- a\n- b\n---\nx").meta).toEqual({});
  });

  test("the fallback description is the first non-empty line", () => {
    expect(fallbackDescription("\n\n  First line  \nsecond\n\npara")).toBe("First line");
    expect(fallbackDescription("")).toBe("");
  });

  test("disable-model-invocation: true survives a front matter that does not parse as written, or at all", () => {
    const repaired = parseSkillFile("---\nname: a\ndescription: [unclosed\ndisable-model-invocation: true\n---\nBody\n");
    expect(repaired.repaired).toBe(true);
    expect(repaired.meta["disable-model-invocation"]).toBe(true);
    const broken = parseSkillFile("---\nname: a\n  bad: [indent\n: :\ndisable-model-invocation: true\n---\nBody\n");
    expect(broken.meta["disable-model-invocation"]).toBe(true);
    const off = parseSkillFile("---\nname: a\ndescription: [unclosed\ndisable-model-invocation: false\n---\nBody\n");
    expect(off.meta["disable-model-invocation"]).not.toBe(true);
  });
});
