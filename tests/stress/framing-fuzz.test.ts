/**
 * Fuzz: valid messages mixed with garbage lines, the whole stream cut at random points, through
 * the real framing and connection. Seeded, so a failing seed reproduces.
 */
import { expect, test } from "bun:test";
import { readLines } from "../../lib/mcp/transports/wire/framing.ts";
import { JsonRpcConnection } from "../../lib/mcp/session/jsonrpc.ts";
import { prng, randomSplit, streamOf } from "../support/prng.ts";

const SEEDS = 200;
const ALPHABET = ["a", "Z", "0", " ", '"', "\\", "{", "}", "é", "😀", "漢", "\t", "\u2028", "\r"];

type Rand = ReturnType<typeof prng>;

function randomText(rand: Rand, max: number): string {
  let text = "";
  for (let i = rand.int(max); i > 0; i--) text += rand.pick(ALPHABET);
  return text;
}

/** One line that must be skipped: random bytes, broken JSON, non-JSON-RPC JSON, stray responses. */
function garbageLine(rand: Rand): Uint8Array {
  const encode = (text: string) => new TextEncoder().encode(text);
  switch (rand.int(7)) {
    case 0: {
      const bytes = new Uint8Array(1 + rand.int(40));
      for (let i = 0; i < bytes.length; i++) bytes[i] = rand.int(256);
      return bytes.map((b) => (b === 0x0a ? 0x20 : b));
    }
    case 1:
      return encode(`{"jsonrpc":"2.0","method":"fuzz/seq","params":{"seq":${rand.int(9)}`);
    case 2:
      return encode(JSON.stringify({ level: "info", msg: randomText(rand, 20) }));
    case 3:
      return encode(JSON.stringify({ jsonrpc: "2.0", id: 1000 + rand.int(1000), result: {} }));
    case 4:
      return encode(rand.pick(["null", "42", '"str"', "[]", "[1,2]", "true", '{"jsonrpc":"1.0","method":"x"}']));
    case 5:
      return encode(`${"[".repeat(5000)}${"]".repeat(5000)}`);
    default:
      return encode(`Server log: ${randomText(rand, 30)}`);
  }
}

async function run(seed: number): Promise<void> {
  const rand = prng(seed);
  const parts: Uint8Array[] = [];
  const expectedSeq: number[] = [];
  const expectedPings: string[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < 60; i++) {
    const roll = rand.int(10);
    if (roll < 4) {
      expectedSeq.push(i);
      const text = randomText(rand, 30);
      parts.push(encoder.encode(JSON.stringify({ jsonrpc: "2.0", method: "fuzz/seq", params: { seq: i, text } })));
    } else if (roll < 5) {
      expectedPings.push(`ping-${i}`);
      parts.push(encoder.encode(JSON.stringify({ jsonrpc: "2.0", id: `ping-${i}`, method: "ping" })));
    } else {
      parts.push(garbageLine(rand));
    }
    parts.push(encoder.encode(rand.int(3) === 0 ? "\r\n" : rand.int(2) ? "\n" : "\n\n"));
  }
  const wire = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    wire.set(part, at);
    at += part.length;
  }

  const seen: number[] = [];
  const replies: string[] = [];
  const conn = new JsonRpcConnection(readLines(streamOf(randomSplit(wire, rand, 1 + rand.int(64)))), {
    peer: "fuzz",
    write: (line) => void replies.push(JSON.parse(line).id),
    onNotification: (_method, params) => seen.push(params?.seq as number),
  });
  await conn.closed;
  expect({ seed, seen }).toEqual({ seed, seen: expectedSeq });
  expect({ seed, replies }).toEqual({ seed, replies: expectedPings });
}

test(`${SEEDS} seeded streams of messages, garbage and random splits: every valid message exactly once, in order`, async () => {
  for (let seed = 1; seed <= SEEDS; seed++) await run(seed);
});
