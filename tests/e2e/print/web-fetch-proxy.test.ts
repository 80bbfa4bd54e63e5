/**
 * WebFetch through a proxy (HTTPS_PROXY), with a proxy of ours on 127.0.0.1 that records what it
 * is asked and tunnels nothing: the proxy resolves names, so the guard judges the name as written
 * before the proxy sees anything. A private or metadata literal is refused with the proxy never
 * contacted; a name goes to the proxy unresolved (it does not resolve here, so a local lookup
 * would have failed first).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Server } from "node:net";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

let proxy: Server;
let proxyUrl = "";
const asked: string[] = [];

beforeAll(async () => {
  proxy = createServer((socket) => {
    socket.once("data", (chunk) => {
      asked.push(chunk.toString("latin1").split("\r\n")[0]!);
      socket.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
});
afterAll(() => proxy.close());

async function fetchThroughProxy(url: string) {
  const model = startModelServer([reply(toolUse("WebFetch", { url, prompt: "what?" })), reply(text("done"))]);
  try {
    const r = await runAgent(["-p", "read it", "--allowedTools", "WebFetch"], {
      cwd: tempDir(),
      model: model.url,
      env: { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, NO_PROXY: "" },
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(0);
    const block = model.requests[1]!.body.messages.at(-1).content[0];
    return { content: String(block.content), isError: block.is_error === true };
  } finally {
    model.stop();
  }
}

describe("WebFetch through a proxy", () => {
  test("a private or metadata literal is refused before the proxy is contacted", async () => {
    const before = asked.length;
    const privateOne = await fetchThroughProxy("http://10.1.2.3/admin");
    expect(privateOne).toMatchObject({ isError: true });
    expect(privateOne.content).toContain("refused to fetch 10.1.2.3");
    const metadata = await fetchThroughProxy("http://169.254.169.254/latest/meta-data/");
    expect(metadata.content).toContain("cloud-metadata");
    const hex = await fetchThroughProxy("http://0xa9.0xfe.0xa9.0xfe/latest/");
    expect(hex.content).toContain("refused to fetch 169.254.169.254");
    expect(asked.length).toBe(before);
  });

  test("a name is handed to the proxy as written, upgraded to https, without a lookup of ours", async () => {
    const before = asked.length;
    const r = await fetchThroughProxy("http://docs.example.test/page");
    expect(r.isError).toBe(true);
    expect(r.content).not.toContain("cannot resolve");
    expect(asked.slice(before)).toEqual(["CONNECT docs.example.test:443 HTTP/1.1"]);
  });
});
