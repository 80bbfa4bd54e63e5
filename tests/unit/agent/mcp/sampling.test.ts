/**
 * sampling/createMessage messages → Messages API messages (MCP 2025-11-25 client/sampling).
 */
import { expect, test } from "bun:test";
import { samplingMessages } from "../../../../lib/agent/mcp/sampling.ts";
import { PNG_BASE64 } from "../../../../fixtures/servers/fixture-catalog.ts";

const png = { type: "image", data: PNG_BASE64, mimeType: "image/png" };

test("images go through the API's checks: a valid one is sent, one over the 5 MiB base64 limit is described", () => {
  const big = { type: "image", data: "A".repeat(5 * 1024 * 1024 + 4), mimeType: "image/png" };
  const [message] = samplingMessages({ messages: [{ role: "user", content: [png, big] }] });
  expect(message!.content[0]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } });
  expect(message!.content[1]).toMatchObject({ type: "text" });
  expect((message!.content[1] as { text: string }).text).toContain("too large to send");
});

test("empty text is dropped, and a message left with nothing goes too", () => {
  const messages = samplingMessages({
    messages: [
      { role: "user", content: { type: "text", text: "" } },
      { role: "assistant", content: [{ type: "text", text: "" }, png] },
      { role: "user", content: { type: "text", text: "and?" } },
    ],
  });
  expect(messages.map((m) => [m.role, m.content.map((b) => b.type)])).toEqual([
    ["assistant", ["image"]],
    ["user", ["text"]],
  ]);
  expect(samplingMessages({ messages: [{ role: "user", content: { type: "text", text: "" } }] })).toEqual([]);
});

test("audio and malformed content are described; a missing messages list is no messages", () => {
  const [message] = samplingMessages({ messages: [{ role: "user", content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }, 7] }] });
  expect(message!.content).toEqual([
    { type: "text", text: "[audio: audio/wav, 3 bytes]" },
    { type: "text", text: "[malformed content block: a number]" },
  ]);
  expect(samplingMessages({})).toEqual([]);
});
