import { describe, expect, test } from "bun:test";
import { type FramedLine, LineSplitter, readLines } from "../../../../../lib/mcp/transports/wire/framing.ts";
import { prng, randomSplit, streamOf } from "../../../../support/prng.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function feed(chunks: Uint8Array[], splitter = new LineSplitter()): FramedLine[] {
  const out: FramedLine[] = [];
  for (const chunk of chunks) out.push(...splitter.push(chunk));
  out.push(...splitter.end());
  return out;
}

async function collect(stream: ReadableStream<Uint8Array>, splitter?: LineSplitter): Promise<FramedLine[]> {
  const out: FramedLine[] = [];
  for await (const line of readLines(stream, { splitter })) out.push(line);
  return out;
}

describe("LineSplitter", () => {
  const messages = [
    JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "é😀 ünïcödé" } }),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { data: "x".repeat(300) } }),
    "server banner: starting up…",
    JSON.stringify({ jsonrpc: "2.0", id: "abc", method: "ping" }),
    JSON.stringify({ emoji: "🧪🧪🧪", cjk: "漢字かな" }),
  ];

  test("every random split of the same bytes yields the same lines", () => {
    const wire = encode(messages.map((m, i) => (i % 2 ? `${m}\r\n` : `${m}\n`)).join("\n"));
    for (let seed = 1; seed <= 300; seed++) {
      const chunks = randomSplit(wire, prng(seed), 1 + (seed % 40));
      expect({ seed, lines: feed(chunks) }).toEqual({ seed, lines: messages });
    }
  });

  test("a multi-byte character split at every byte boundary decodes whole", () => {
    const line = "é😀漢";
    const wire = encode(`${line}\n`);
    for (let cut = 0; cut <= wire.length; cut++) {
      expect(feed([wire.slice(0, cut), wire.slice(cut)])).toEqual([line]);
    }
  });

  test("CRLF endings are stripped, blank lines skipped, banner lines passed through as text", () => {
    const wire = encode('{"a":1}\r\n\r\n\n   \nWelcome to the server\r\n{"b":2}\n');
    expect(feed([wire])).toEqual(['{"a":1}', "Welcome to the server", '{"b":2}']);
  });

  test("the last line is delivered at EOF without a newline, only once", () => {
    const splitter = new LineSplitter();
    expect(splitter.push(encode('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(splitter.push(encode(":2}"))).toEqual([]);
    expect(splitter.end()).toEqual(['{"b":2}']);
    expect(splitter.end()).toEqual([]);
  });

  test("a line of invalid UTF-8 is reported as bytes and the next line still decodes", () => {
    const bad = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
    const out = feed([bad, encode("\n"), encode('{"ok":true}\n')]);
    expect(out).toHaveLength(2);
    expect(out[0]).toBeInstanceOf(Uint8Array);
    expect([...(out[0] as Uint8Array)]).toEqual([...bad]);
    expect(out[1]).toBe('{"ok":true}');
  });

  test("a 20 MB line fed in 64 KB chunks is scanned once and copied once", () => {
    const size = 20 * 1024 * 1024;
    const line = new Uint8Array(size).fill(0x61);
    const chunkSize = 64 * 1024;
    const splitter = new LineSplitter();
    const out: FramedLine[] = [];
    for (let at = 0; at < size; at += chunkSize) out.push(...splitter.push(line.subarray(at, at + chunkSize)));
    out.push(...splitter.push(encode("\nnext\n")));
    expect(out).toHaveLength(2);
    expect((out[0] as string).length).toBe(size);
    expect(out[1]).toBe("next");
    const { bytesIn, bytesScanned, bytesCopied, lines } = splitter.stats;
    expect(bytesIn).toBe(size + 6);
    expect(bytesScanned).toBe(bytesIn);
    expect(bytesCopied).toBe(size);
    expect(lines).toBe(2);
  });

  test("a line longer than maxLineBytes is dropped as invalid, and framing recovers", () => {
    const splitter = new LineSplitter({ maxLineBytes: 100 });
    const out = feed([encode("x".repeat(60)), encode("y".repeat(60)), encode("z\nafter\n")], splitter);
    expect(out).toHaveLength(2);
    expect(out[0]).toBeInstanceOf(Uint8Array);
    expect(out[1]).toBe("after");
    expect(splitter.stats.invalidLines).toBe(1);
  });
});

describe("readLines", () => {
  test("reads a real stream to EOF, with the final unterminated line", async () => {
    const chunks = randomSplit(encode('{"a":1}\n{"b":"é"}\r\ntail'), prng(7), 3);
    expect(await collect(streamOf(chunks))).toEqual(['{"a":1}', '{"b":"é"}', "tail"]);
  });

  test("an abort ends the iteration of a stream that never closes", async () => {
    let push!: (chunk: Uint8Array) => void;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (push = (chunk) => c.enqueue(chunk)) });
    const abort = new AbortController();
    const lines: FramedLine[] = [];
    const done = (async () => {
      for await (const line of readLines(stream, { signal: abort.signal })) {
        lines.push(line);
        abort.abort();
      }
    })();
    push(encode("first\n"));
    await done;
    expect(lines).toEqual(["first"]);
  });

  test("a bun subprocess pipe is framed the same as an in-memory stream", async () => {
    const script = `process.stdout.write("a\\n"); process.stdout.write("é"); process.stdout.write("\\nb");`;
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" });
    expect(await collect(proc.stdout)).toEqual(["a", "é", "b"]);
    expect(await proc.exited).toBe(0);
  });
});
