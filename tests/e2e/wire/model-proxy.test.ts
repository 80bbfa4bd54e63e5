/**
 * The Messages API requests pick their proxy as the MCP transports do (lib/shared/proxy.ts): a
 * loopback ANTHROPIC_BASE_URL (a local gateway, the scripted model) is reached directly even with
 * HTTP_PROXY set, which Bun's fetch alone would route through the proxy; NO_PROXY is honoured.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type ForwardProxy, startForwardProxy } from "../../support/forward-proxy.ts";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let server: ModelServer | undefined;
let proxy: ForwardProxy | undefined;
afterEach(async () => {
  server?.stop();
  await proxy?.close();
});

const blank = { HTTP_PROXY: undefined, http_proxy: undefined, HTTPS_PROXY: undefined, https_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined };

describe("the model's requests and HTTP_PROXY", () => {
  test("a loopback base URL is reached directly, never through the proxy", async () => {
    server = startModelServer([reply(text("direct"))]);
    proxy = await startForwardProxy();
    const r = await runAgent(["-p", "hi"], { cwd: tempDir(), model: server.url, env: { ...blank, HTTP_PROXY: proxy.url, http_proxy: proxy.url } });
    expect(r).toMatchObject({ code: 0, stdout: "direct\n" });
    expect(proxy.requests).toEqual([]);
  });
});
