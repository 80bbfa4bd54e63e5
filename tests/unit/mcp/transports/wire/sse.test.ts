import { describe, expect, test } from "bun:test";
import { readEvents, type SseEvent, SseParser } from "../../../../../lib/mcp/transports/wire/sse.ts";
import { prng, randomSplit, streamOf } from "../../../../support/prng.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function parse(input: string | Uint8Array, chunks?: (bytes: Uint8Array) => Uint8Array[]): { events: SseEvent[]; parser: SseParser } {
  const bytes = typeof input === "string" ? encode(input) : input;
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (const chunk of chunks ? chunks(bytes) : [bytes]) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return { events, parser };
}

const ev = (data: string, type = "message", id = ""): SseEvent => ({ type, data, id });

describe("SseParser (HTML living standard, event stream interpretation)", () => {
  test("data lines join with \\n; one space after the colon is dropped, not two", () => {
    expect(parse("data: one\ndata:two\ndata:  three\n\n").events).toEqual([ev("one\ntwo\n three")]);
  });

  test("event, id and retry fields; the id persists to later events", () => {
    const { events, parser } = parse("event: ping\nid: 7\nretry: 1500\ndata: a\n\ndata: b\n\n");
    expect(events).toEqual([ev("a", "ping", "7"), ev("b", "message", "7")]);
    expect(parser.retryMs).toBe(1500);
    expect(parser.lastEventId).toBe("7");
  });

  test("retry that is not all ASCII digits is ignored; an id with NUL is ignored; an empty id resets", () => {
    const { parser } = parse("retry: 10x\nretry: -5\nid: a\0b\ndata: x\n\n");
    expect(parser.retryMs).toBeUndefined();
    expect(parser.lastEventId).toBe("");
    const reset = parse("id: 3\ndata: x\n\nid\ndata: y\n\n");
    expect(reset.events.map((e) => e.id)).toEqual(["3", ""]);
  });

  test("an id with no data dispatches nothing but still moves lastEventId (a priming event)", () => {
    const { events, parser } = parse("id: prime-1\n\n");
    expect(events).toEqual([]);
    expect(parser.lastEventId).toBe("prime-1");
    // An empty `data:` line is an event whose data is "".
    expect(parse("id: p\ndata:\n\n").events).toEqual([ev("", "message", "p")]);
  });

  test("comments and unknown fields are skipped", () => {
    expect(parse(": keep-alive\n:\nfoo: bar\ndata: x\n\n").events).toEqual([ev("x")]);
  });

  test("\\r, \\n and \\r\\n line ends, mixed", () => {
    expect(parse("data: a\rdata: b\r\ndata: c\n\r\ndata: d\r\r").events).toEqual([ev("a\nb\nc"), ev("d")]);
  });

  test("a CR at the end of one chunk and an LF at the start of the next is one line end", () => {
    const { events } = parse("data: a\r\n\r\ndata: b\r\n\r\n", (b) => {
      const cut = "data: a\r".length;
      return [b.subarray(0, cut), b.subarray(cut)];
    });
    expect(events).toEqual([ev("a"), ev("b")]);
  });

  test("an unfinished event at EOF is dropped", () => {
    expect(parse("data: done\n\ndata: unfinished\n").events).toEqual([ev("done")]);
  });

  test("a leading BOM is dropped, even split across chunks; a later U+FEFF is content", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...encode("data: \uFEFFx\n\n")]);
    for (let cut = 0; cut <= 4; cut++) {
      expect(parse(bytes, (b) => [b.subarray(0, cut), b.subarray(cut)]).events).toEqual([ev("\uFEFFx")]);
    }
    // Only one BOM is stripped; a second makes the field name "\uFEFFdata", which is ignored.
    expect(parse(new Uint8Array([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...encode("data: x\n\n")])).events).toEqual([]);
    // Bytes that start like a BOM but are not one are kept.
    expect(parse(new Uint8Array([0xef, 0xbb, ...encode("x\ndata: y\n\n")]), (b) => [b.subarray(0, 1), b.subarray(1)]).events).toEqual([ev("y")]);
  });

  test("multi-byte characters split at every byte decode whole", () => {
    const text = "data: é😀漢\n\n";
    const bytes = encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(parse(bytes, (b) => [b.subarray(0, cut), b.subarray(cut)]).events).toEqual([ev("é😀漢")]);
    }
  });

  test("field names split at every byte: a bare `data` is an empty line of data, a long or unknown name is ignored", () => {
    const text = "data\ndatas: no\nretryx: 9\n:data: comment\nevent:e\ndata:  two\n\n";
    const bytes = encode(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { events, parser } = parse(bytes, (b) => [b.subarray(0, cut), b.subarray(cut)]);
      expect({ cut, events }).toEqual({ cut, events: [ev("\n two", "e")] });
      expect(parser.retryMs).toBeUndefined();
    }
  });

  test("byte by byte gives the same events as one chunk", () => {
    const text = 'event: message\nid: 1\ndata: {"jsonrpc":"2.0",\ndata: "id":1}\n\n: c\nretry: 5\n\ndata: z\n\n';
    const whole = parse(text).events;
    const bytewise = parse(text, (b) => Array.from(b, (x) => new Uint8Array([x]))).events;
    expect(bytewise).toEqual(whole);
    expect(whole).toHaveLength(2);
  });

  test("work is linear: a 4 MB data line in 1 KB chunks is scanned once and copied once", () => {
    const payload = "x".repeat(4 * 1024 * 1024);
    const { events, parser } = parse(`data: ${payload}\n\n`, (b) => {
      const out: Uint8Array[] = [];
      for (let at = 0; at < b.length; at += 1024) out.push(b.subarray(at, at + 1024));
      return out;
    });
    expect(events[0]!.data.length).toBe(payload.length);
    expect(parser.stats.bytesScanned).toBe(parser.stats.bytesIn);
    expect(parser.stats.bytesCopied).toBeLessThanOrEqual(parser.stats.bytesIn);
  });

  test("parsers fed alternately keep their own lines (the join buffer they share is never read across pushes)", () => {
    const rand = prng(7);
    const texts = ["a", "b", "c"].map((tag) => `id: ${tag}\ndata: ${tag.repeat(3000)}\ndata: ${tag}é\n\n`.repeat(3));
    const feeds = texts.map((t) => randomSplit(encode(t), rand, 700));
    const parsers = texts.map(() => new SseParser());
    const got: SseEvent[][] = texts.map(() => []);
    for (let step = 0; feeds.some((f) => step < f.length); step++) {
      for (let p = 0; p < parsers.length; p++) if (step < feeds[p]!.length) got[p]!.push(...parsers[p]!.push(feeds[p]![step]!));
    }
    texts.forEach((_, p) => {
      const tag = "abc"[p]!;
      expect(got[p]).toEqual(Array.from({ length: 3 }, () => ev(`${tag.repeat(3000)}\n${tag}é`, "message", tag)));
    });
  });

  test("a line longer than the reused join buffer (16 MiB) arrives whole", () => {
    const size = 17 * 1024 * 1024;
    const { events, parser } = parse(`data: ${"z".repeat(size - 1)}!\n\ndata: next\n\n`, (b) => {
      const out: Uint8Array[] = [];
      for (let at = 0; at < b.length; at += 1 << 20) out.push(b.subarray(at, at + (1 << 20)));
      return out;
    });
    expect(events.map((e) => [e.data.length, e.data.at(-1)])).toEqual([
      [size, "!"],
      [4, "t"],
    ]);
    expect(parser.stats.bytesCopied).toBeLessThanOrEqual(parser.stats.bytesIn);
  });

  test("an event over maxEventBytes is dropped and counted; the next one is kept", () => {
    const parser = new SseParser({ maxEventBytes: 64 });
    const out = [...parser.push(encode(`data: ${"y".repeat(100)}\n\ndata: ok\n\n`))];
    expect(out).toEqual([ev("ok")]);
    expect(parser.stats.dropped).toBe(1);
    const split = new SseParser({ maxEventBytes: 64 });
    const got = [...split.push(encode(`data: ${"y".repeat(50)}`)), ...split.push(encode(`${"y".repeat(50)}\n\ndata: ok\n\n`))];
    expect(got).toEqual([ev("ok")]);
  });
});

describe("readEvents", () => {
  test("reads a stream to its end", async () => {
    const events: SseEvent[] = [];
    for await (const e of readEvents(streamOf([encode("data: a\n"), encode("\ndata: b\n\n")]))) events.push(e);
    expect(events).toEqual([ev("a"), ev("b")]);
  });

  test("without Bun's readMany (one read per chunk) the events are the same", async () => {
    const proto = ReadableStreamDefaultReader.prototype as { readMany?: unknown };
    const readMany = proto.readMany;
    const bytes = encode('id: 1\ndata: {"a":\ndata: 1}\n\n: c\ndata: é\n\n');
    const read = async () => {
      const events: SseEvent[] = [];
      for await (const e of readEvents(streamOf(randomSplit(bytes, prng(3), 5)))) events.push(e);
      return events;
    };
    const withMany = await read();
    delete proto.readMany;
    try {
      expect(await read()).toEqual(withMany);
    } finally {
      proto.readMany = readMany;
    }
    expect(withMany).toEqual([ev('{"a":\n1}', "message", "1"), ev("é", "message", "1")]);
  });

  test("an abort ends the iteration of a stream that never ends", async () => {
    const controller = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encode("data: first\n\n"));
      },
    });
    const events: SseEvent[] = [];
    for await (const e of readEvents(stream, { signal: controller.signal })) {
      events.push(e);
      controller.abort();
    }
    expect(events).toEqual([ev("first")]);
  });
});
