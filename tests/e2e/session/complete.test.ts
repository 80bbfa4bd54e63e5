/**
 * Tab completion of MCP resource templates through a pseudo-terminal (tests/support/pty-term.ts): templates are listed
 * as written next to resources, choosing one inserts its text before the first `{`, and inside a
 * variable the server's `completion/complete` values are offered (MCP 2025-11-25,
 * server/resources#resource-templates, server/utilities/completion). Against our fixture server
 * and the npm everything server; the completed mention is read and attached.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { reply, text } from "../../support/model-server.ts";
import { fixtureServer, writeMcpConfig } from "../../support/run.ts";
import { npmServer } from "../../support/mcp.ts";
import { atPrompt, startAgent, stopAgent, TEST_TIMEOUT_MS } from "../../support/repl.ts";

/** The conversation's own messages: not the system-role context (the skills and agent listings). */
const conversational = (m: { role: string }) => m.role !== "system";

afterEach(stopAgent);

/** The user's text blocks of request `n`, joined. */
const userText = (requests: { body: any }[], n: number) =>
  requests[n]!.body.messages.filter(conversational)
    .at(-1)
    .content.map((b: { text?: string }) => b.text ?? "")
    .join("\n");

describe("completion of resource templates", () => {
  test(
    "templates are listed as written, one inserts its prefix, the server completes the variable, the mention is attached",
    async () => {
      const { term, server } = await startAgent([reply(text("noted"))], {
        setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer("--resource-templates") }),
      });
      await term.waitFor("MCP: 1 connected");
      await term.type("read @fx:fixture://");
      await term.keys("Tab");
      let screen = await term.waitFor("@fx:fixture://users/{id}/profile");
      expect(screen).toContain("@fx:fixture://notes/{name}");
      expect(screen).toContain("@fx:fixture://hello");
      await term.type("n");
      await term.keys("Tab");
      await term.waitFor((s) => s.trimEnd().endsWith("> read @fx:fixture://notes/"));
      // Inside {name}: the values come from the server's completion/complete.
      await term.keys("Tab");
      screen = await term.waitFor("@fx:fixture://notes/alpine");
      expect(screen).toContain("@fx:fixture://notes/alpha");
      expect(screen).toContain("@fx:fixture://notes/beta");
      await term.type("alpi");
      await term.keys("Tab");
      await term.waitFor("> read @fx:fixture://notes/alpine ");
      await term.type("please");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("noted") && atPrompt(s));
      expect(userText(server.requests, 0)).toContain('<attachment source="fx:fixture://notes/alpine">\nnote alpine\n</attachment>');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "/mcp counts a server's resource templates",
    async () => {
      const { term } = await startAgent([], { setup: (dir) => writeMcpConfig(dir, { fx: fixtureServer("--resource-templates") }) });
      await term.waitFor("MCP: 1 connected");
      await term.type("/mcp");
      await term.keys("Enter");
      await term.waitFor(/fx: connected · stdio · \d+ tools, \d+ prompts, 3 resources, 2 resource templates/);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "the npm everything server: its dynamic text template, its resourceId completed, the resource read",
    async () => {
      const { term, server } = await startAgent([reply(text("read it"))], {
        setup: (dir) => writeMcpConfig(dir, { everything: npmServer("everything", ["stdio"]) }),
      });
      await term.waitFor("MCP: 1 connected");
      await term.type("@everything:demo://resource/dynamic/t");
      await term.keys("Tab");
      await term.waitFor((s) => s.trimEnd().endsWith("> @everything:demo://resource/dynamic/text/"));
      await term.type("3");
      await term.keys("Tab");
      await term.waitFor("> @everything:demo://resource/dynamic/text/3 ");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("read it") && atPrompt(s));
      expect(userText(server.requests, 0)).toContain(
        '<attachment source="everything:demo://resource/dynamic/text/3">\nResource 3: This is a plaintext resource',
      );
    },
    TEST_TIMEOUT_MS,
  );
});
