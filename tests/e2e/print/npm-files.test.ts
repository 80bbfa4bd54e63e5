/**
 * The npm reference servers `@modelcontextprotocol/server-filesystem` and `-memory` (devDependencies,
 * run as `node <bin>`, not through npx) through the whole agent: files read and written in the
 * project through the server's allowed directories (given as arguments, or as our roots), and the
 * memory server's knowledge graph written by a tool and read back as an `@memory:` resource.
 * After every run, no process the run started is left.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { marked, npmServer, project, stopProjects, survivors, toolResults, userBlocks, type AgentProcess, type Project } from "../../support/mcp.ts";

afterEach(stopProjects);

async function nothingLeft(p: Project) {
  expect(await survivors(() => marked(p.marker))).toEqual([]);
}

describe("filesystem server", () => {
  test("started with the project as its allowed directory: writes a file and reads one", async () => {
    const p = project(
      ({ dir }) => ({ fs: npmServer("filesystem", [dir]) }),
      ({ dir }) => [
        reply(toolUse("mcp__fs__write_file", { path: join(dir, "out.txt"), content: "written through MCP\n" })),
        reply(toolUse("mcp__fs__read_text_file", { path: join(dir, "in.txt") })),
        reply(text("done")),
      ],
    );
    writeFileSync(join(p.dir, "in.txt"), "prepared by the test\n");
    const r = await p.run("files");
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(readFileSync(join(p.dir, "out.txt"), "utf8")).toBe("written through MCP\n");
    const [write] = toolResults(p.model.requests[1]!);
    expect(write.is_error).toBeUndefined();
    const [read] = toolResults(p.model.requests[2]!);
    expect(read.content).toContain("prepared by the test");
    await nothingLeft(p);
  });

  test("started without directories: it takes our roots, works inside the project and refuses outside it", async () => {
    let agent!: AgentProcess;
    // A real file outside the project, so a refusal cannot be a mere "not found".
    const outside = join(tempDir(), "outside.txt");
    writeFileSync(outside, "not for the server");
    const p = project({ fs: npmServer("filesystem") }, ({ dir }) => [
      // The server asks roots/list after the handshake; go once it says it has them (its stderr, via --verbose).
      async () => {
        await agent.waitForStderr("Updated allowed directories from MCP roots");
        return reply(toolUse("mcp__fs__list_allowed_directories", {}));
      },
      reply(toolUse("mcp__fs__write_file", { path: join(dir, "rooted.txt"), content: "via roots" })),
      reply(toolUse("mcp__fs__read_text_file", { path: outside })),
      reply(text("done")),
    ]);
    agent = p.spawn("roots", { args: ["--verbose"] });
    const r = await agent.done;
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    expect(toolResults(p.model.requests[1]!)[0].content).toContain(p.dir);
    expect(readFileSync(join(p.dir, "rooted.txt"), "utf8")).toBe("via roots");
    const [refused] = toolResults(p.model.requests[3]!);
    expect(refused.is_error).toBe(true);
    expect(refused.content).toMatch(/access denied|outside allowed directories/i);
    expect(refused.content).not.toContain("not for the server");
    await nothingLeft(p);
  });
});

describe("memory server", () => {
  test("an entity created by a tool call is sent along with @memory:memory://knowledge-graph in the next run", async () => {
    const p = project(
      ({ dir }) => ({ memory: npmServer("memory", [], { MEMORY_FILE_PATH: join(dir, "memory.jsonl") }) }),
      [
        reply(
          toolUse("mcp__memory__create_entities", { entities: [{ name: "Ada Lovelace", entityType: "person", observations: ["wrote the first program"] }] }),
        ),
        reply(text("remembered")),
        reply(text("summarised")),
      ],
    );
    const first = await p.run("remember Ada");
    expect([first.code, first.stdout]).toEqual([0, "remembered\n"]);
    await nothingLeft(p);

    const second = await p.run("what do you know? @memory:memory://knowledge-graph");
    expect([second.code, second.stdout]).toEqual([0, "summarised\n"]);
    const [, attachment] = userBlocks(p.model.requests[2]!);
    expect(attachment.text).toStartWith('<attachment source="memory:memory://knowledge-graph">\n');
    const graph = JSON.parse(attachment.text.split("\n").slice(1, -1).join("\n"));
    expect(graph.entities).toEqual([{ name: "Ada Lovelace", entityType: "person", observations: ["wrote the first program"] }]);
    await nothingLeft(p);
  });
});
