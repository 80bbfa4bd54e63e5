/**
 * The fixture MCP server over real pipes: its default behaviour is a correct MCP 2025-11-25
 * server, and each flag changes exactly the behaviour it names.
 */
import { describe, expect, test } from "bun:test";
import { call, start, startWith } from "../support/peers.ts";
import { FLAG_HELP } from "../../fixtures/servers/fixture-flags.ts";
import { byteLines, splitPieces } from "../../fixtures/servers/fixture-wire.ts";
import { FIXTURE_SERVER } from "../../fixtures/servers/peer.ts";
import { tempDir } from "../support/run.ts";

const textOf = (res: any) => res.result.content.map((b: any) => b.text).join("\n");

describe("default behaviour", () => {
  test("handshake: echoes a supported protocolVersion, declares tools/prompts/resources with listChanged", async () => {
    const peer = start();
    const init = await peer.handshake("2025-06-18");
    expect(init.result.protocolVersion).toBe("2025-06-18");
    expect(init.result.serverInfo).toEqual({ name: "fixture", version: "1.0.0" });
    expect(init.result.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    expect(await peer.close()).toBe(0);
  });

  test("answers an unsupported protocolVersion with its latest", async () => {
    const peer = start();
    expect((await peer.handshake("1999-01-01")).result.protocolVersion).toBe("2025-11-25");
  });

  test("tools/list, calls, ping and unknown methods", async () => {
    const peer = start();
    await peer.handshake();
    const names = (await peer.request("tools/list")).result.tools.map((t: any) => t.name);
    expect(names).toEqual(["echo", "add", "fail", "rpc_error", "multi", "crash", "slow", "env", "image", "structured", "roots", "sample", "big", "cwd"]);
    expect(textOf(await call(peer, "echo", { text: "héllo 😀" }))).toBe("héllo 😀");
    expect(textOf(await call(peer, "add", { a: 2, b: 40 }))).toBe("42");
    expect((await call(peer, "fail")).result).toEqual({ content: [{ type: "text", text: "fixture failure" }], isError: true });
    expect((await call(peer, "rpc_error")).error).toEqual({ code: -32000, message: "fixture rpc error" });
    expect((await call(peer, "multi")).result.content.map((b: any) => b.text)).toEqual(["one", "two", "three"]);
    expect((await call(peer, "structured")).result).toEqual({ structuredContent: { temperature: 22.5, conditions: "sunny" } });
    expect(textOf(await call(peer, "big", { bytes: 100_000 }))).toHaveLength(100_000);
    const image = (await call(peer, "image")).result.content[0];
    expect(image.mimeType).toBe("image/png");
    expect(Buffer.from(image.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect((await peer.request("ping")).result).toEqual({});
    expect((await peer.request("no/such/method")).error.code).toBe(-32601);
    expect((await call(peer, "no_such_tool")).error.code).toBe(-32602);
  });

  test("env and cwd tools see the server's environment and working directory", async () => {
    const dir = tempDir();
    const peer = startWith([], { cwd: dir, env: { FIXTURE_TEST_VAR: "v=1" } });
    await peer.handshake();
    expect(textOf(await call(peer, "env", { name: "FIXTURE_TEST_VAR" }))).toBe("v=1");
    expect((await call(peer, "env", { name: "FIXTURE_UNSET_VAR" })).result.isError).toBe(true);
    expect(textOf(await call(peer, "cwd"))).toBe(dir);
  });

  test("requests before initialize are refused, ping is allowed", async () => {
    const peer = start();
    expect((await peer.request("ping")).result).toEqual({});
    expect((await peer.request("tools/list")).error.code).toBe(-32600);
  });

  test("prompts/get and resources/read", async () => {
    const peer = start();
    await peer.handshake();
    const greet = await peer.request("prompts/get", { name: "greet", arguments: { name: "Ann", style: "warm" } });
    expect(greet.result.messages).toEqual([{ role: "user", content: { type: "text", text: "Hello Ann (warm)" } }]);
    expect((await peer.request("prompts/get", { name: "greet", arguments: {} })).error.code).toBe(-32602);
    const multi = await peer.request("prompts/get", { name: "multi" });
    expect(multi.result.messages.map((m: any) => m.content.type)).toEqual(["text", "image", "resource"]);
    const hello = await peer.request("resources/read", { uri: "fixture://hello" });
    expect(hello.result.contents).toEqual([{ uri: "fixture://hello", mimeType: "text/plain", text: "hello from fixture" }]);
    const blob = await peer.request("resources/read", { uri: "fixture://blob" });
    expect(Buffer.from(blob.result.contents[0].blob, "base64")).toHaveLength(16);
    expect((await peer.request("resources/read", { uri: "fixture://nope" })).error.code).toBe(-32002);
  });

  test("roots and sample ask the client and return what it answered", async () => {
    const peer = start();
    await peer.handshake();
    const rootsCall = call(peer, "roots");
    const rootsReq = (await peer.waitFor((r) => r.json?.method === "roots/list")).json;
    peer.send({ jsonrpc: "2.0", id: rootsReq.id, result: { roots: [{ uri: "file:///x", name: "x" }] } });
    expect(JSON.parse(textOf(await rootsCall))).toEqual({ roots: [{ uri: "file:///x", name: "x" }] });

    const sampleCall = call(peer, "sample", { prompt: "hi?" });
    const sampleReq = (await peer.waitFor((r) => r.json?.method === "sampling/createMessage")).json;
    expect(sampleReq.params.messages[0].content.text).toBe("hi?");
    peer.send({ jsonrpc: "2.0", id: sampleReq.id, result: { role: "assistant", content: { type: "text", text: "sampled!" }, model: "m" } });
    expect(textOf(await sampleCall)).toBe("sampled!");
  });

  test("notifications/cancelled stops a slow call: no response is ever sent for it", async () => {
    const peer = start();
    await peer.handshake();
    const cancelledId = "to-cancel";
    peer.send({ jsonrpc: "2.0", id: cancelledId, method: "tools/call", params: { name: "slow", arguments: { ms: 200 } } });
    peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: cancelledId, reason: "test" } });
    // A later, longer call: had the first not been cancelled, its response would come first.
    const later = await peer.request("tools/call", { name: "slow", arguments: { ms: 400 } });
    expect(textOf(later)).toBe("slept 400 ms");
    expect(peer.received.some((r) => r.json?.id === cancelledId)).toBe(false);
    await peer.waitForStderr(`notifications/cancelled for "${cancelledId}"`);
  });

  test("crash exits 1 without answering", async () => {
    const peer = start();
    await peer.handshake();
    await expect(call(peer, "crash")).rejects.toThrow("closed stdout");
    expect(await peer.exited).toBe(1);
  });

  test("--help lists every flag", async () => {
    const proc = Bun.spawn([process.execPath, FIXTURE_SERVER, "--help"], { stdout: "pipe" });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    for (const flag of Object.keys(FLAG_HELP)) expect(out).toContain(`--${flag}`);
  });
});

describe("wire pieces", () => {
  test("splitPieces cuts inside every multi-byte character and keeps all bytes in order", () => {
    const bytes = new TextEncoder().encode(`{"text":"${"a".repeat(40)} é😀"}`);
    const pieces = splitPieces(bytes, 16);
    expect(Buffer.concat(pieces)).toEqual(Buffer.from(bytes));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(16);
    const fatal = new TextDecoder("utf-8", { fatal: true });
    const undecodable = pieces.filter((p) => {
      try {
        fatal.decode(p);
        return false;
      } catch {
        return true;
      }
    });
    // é ends one piece with its lead byte, the next starts with its continuation; same for 😀.
    expect(undecodable.length).toBeGreaterThanOrEqual(3);
  });

  test("byteLines splits on the newline byte across chunks and delivers a final unterminated line", async () => {
    const enc = new TextEncoder();
    const whole = enc.encode("one\ntwo é\r\n\nthree");
    async function* chunks() {
      for (let i = 0; i < whole.length; i += 3) yield whole.subarray(i, i + 3);
    }
    const lines: string[] = [];
    for await (const line of byteLines(chunks())) lines.push(new TextDecoder().decode(line));
    expect(lines).toEqual(["one", "two é\r", "", "three"]);
  });
});
