/**
 * WebFetch's guard in the interactive session, through a pseudo-terminal (tests/support/pty-term.ts): a loopback address
 * with no allow rule is not refused outright as in -p, but asked about once more, with the reason
 * shown and no "always"; yes fetches it, no gives the model a refusal and the server sees nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { atPrompt, startAgent, stopAgent, submit, TEST_TIMEOUT_MS } from "../../support/repl.ts";
import { startWebPages, type WebPages } from "../../support/web-pages.ts";

let web: WebPages;
beforeAll(() => {
  web = startWebPages();
});
afterAll(() => web.stop());
afterEach(stopAgent);

const fetchCall = (path: string) => toolUse("WebFetch", { url: web.url(path), prompt: "what does it say?" });

describe("WebFetch of a private address in the session", () => {
  test(
    "asks with the reason; yes fetches the page",
    async () => {
      const { term, server } = await startAgent([reply(fetchCall("/page")), reply(text("the page greets you")), reply(text("fetched it"))]);
      await submit(term, "read the local page");
      await term.waitFor("Allow WebFetch(");
      await term.type("y");
      await term.keys("Enter");
      // The reason is printed above the second question, which is drawn just after it: wait for both.
      const questions = (screen: string) => screen.split("\n").filter((l) => l.includes("Allow WebFetch("));
      const asked = await term.waitFor((s) => s.includes("WebFetch would connect to") && questions(s).length === 2);
      expect(asked).toContain("WebFetch would connect to 127.0.0.1, a loopback or private-network address");
      // The second question offers no always: the yes is for this fetch only.
      expect(questions(asked)[1]).not.toContain("[a]lways");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("fetched it") && atPrompt(s));
      expect(web.seen.some((s) => s.path === "/page")).toBe(true);
      expect(server.requests[2]!.body.messages.at(-1).content[0].content).toBe("the page greets you");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "no refuses it, and the server sees nothing",
    async () => {
      const { term, server } = await startAgent([reply(fetchCall("/json")), reply(text("could not read it"))]);
      const before = web.seen.length;
      await submit(term, "read the local json");
      await term.waitFor("Allow WebFetch(");
      await term.type("y");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("WebFetch would connect to") && s.split("\n").filter((l) => l.includes("Allow WebFetch(")).length === 2);
      await term.type("n");
      await term.keys("Enter");
      await term.waitFor((s) => s.includes("could not read it") && atPrompt(s));
      expect(web.seen.length).toBe(before);
      const result = server.requests[1]!.body.messages.at(-1).content[0];
      expect(result.is_error).toBe(true);
      expect(result.content).toContain("the user refused to let WebFetch reach 127.0.0.1");
    },
    TEST_TIMEOUT_MS,
  );
});
