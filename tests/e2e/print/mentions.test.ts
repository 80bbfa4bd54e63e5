/**
 * `@path` mentions through the whole agent: files are read like Read reads them (regular files
 * only, at most 256 KiB, the same decoding), and anything that cannot be attached is one stderr
 * line naming the mention, exit 1, before any model call.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, type ModelServer } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";
import { withoutBreakpoints } from "../../support/mcp.ts";

let server: ModelServer | undefined;
let listener: { stop(): void } | undefined;
afterEach(() => {
  server?.stop();
  listener?.stop();
});

const KiB = 1024;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/** Runs `-p prompt` in `dir` against a model that answers "ok". */
async function ask(dir: string, prompt: string) {
  server = startModelServer([reply(text("ok"))]);
  return runAgent(["-p", prompt], { cwd: dir, model: server.url });
}
const attachments = () => withoutBreakpoints(server!.requests[0]!.body.messages[0].content.slice(1));
const stderrLines = (stderr: string) => stderr.split("\n").filter((l) => l.trim() !== "");

describe("what cannot be attached: one line naming the mention, exit 1, no model call", () => {
  test("a FIFO is refused, not opened (opening it would block the agent until a writer came)", async () => {
    const dir = tempDir();
    expect(Bun.spawnSync(["mkfifo", join(dir, "fifo")]).exitCode).toBe(0);
    const r = await ask(dir, "what is in @fifo?");
    expect([r.code, stderrLines(r.stderr)]).toEqual([1, ["error: cannot read @fifo: not a regular file"]]);
    expect(server!.requests).toHaveLength(0);
  });

  test("a Unix socket is refused the same way, without a stack trace", async () => {
    const dir = tempDir();
    listener = Bun.listen({ unix: join(dir, "sock"), socket: { data() {} } });
    const r = await ask(dir, "read @sock");
    expect([r.code, stderrLines(r.stderr)]).toEqual([1, ["error: cannot read @sock: not a regular file"]]);
    expect(server!.requests).toHaveLength(0);
  });

  test.skipIf(process.platform !== "linux")("an fs error while reading (EIO) is the error's one line", async () => {
    // /proc/self/mem is a regular file whose first page is never mapped: reading it fails with EIO.
    const r = await ask(tempDir(), "@/proc/self/mem");
    expect(r.code).toBe(1);
    expect(stderrLines(r.stderr)).toEqual(["error: cannot read @/proc/self/mem: EIO: i/o error, read"]);
    expect(server!.requests).toHaveLength(0);
  });
});

describe("decoded like Read decodes", () => {
  test("a long file is cut at 256 KiB without splitting a character, with a note", async () => {
    const dir = tempDir();
    // "a" then two-byte characters: byte 262144 falls in the middle of one.
    writeFileSync(join(dir, "long.txt"), "a" + "é".repeat(200 * KiB));
    expect((await ask(dir, "@long.txt")).code).toBe(0);
    const body: string = attachments()[0].text;
    const kept = "a" + "é".repeat((256 * KiB - 1) / 2);
    expect(body).toBe(
      `<attachment source="long.txt">\n${kept}\n[… cut after the first ${256 * KiB} bytes of ${1 + 400 * KiB} bytes; use the Read tool for the rest]\n</attachment>`,
    );
  });

  test("a Latin-1 file is decoded as Latin-1, with Read's note, not turned into U+FFFD", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "l1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect((await ask(dir, "@l1.txt")).code).toBe(0);
    expect(attachments()[0].text).toBe('<attachment source="l1.txt">\n(Decoded as Latin-1 (ISO-8859-1): the file is not UTF-8.)\ncafé\n\n</attachment>');
  });

  test("a UTF-16 file with a BOM is text", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "u16.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("wörld", "utf16le")]));
    expect((await ask(dir, "@u16.txt")).code).toBe(0);
    expect(attachments()[0].text).toBe('<attachment source="u16.txt">\n(Decoded as UTF-16LE with BOM: the file is not UTF-8.)\nwörld\n</attachment>');
  });
});

describe("images", () => {
  test("an image is known by its bytes, not its name", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "pixel.dat"), PNG);
    writeFileSync(join(dir, "fake.png"), "not really a png");
    expect((await ask(dir, "@pixel.dat @fake.png")).code).toBe(0);
    expect(attachments()).toEqual([
      { type: "text", text: `<attachment source="pixel.dat">\n(image, image/png, ${PNG.length} bytes)\n</attachment>` },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
      { type: "text", text: '<attachment source="fake.png">\nnot really a png\n</attachment>' },
    ]);
  });

  test("an image whose base64 would exceed the API's 5 MiB limit is described, not attached", async () => {
    const dir = tempDir();
    // 4 MiB of PNG: under 5 MiB of bytes, over 5 MiB of base64.
    writeFileSync(join(dir, "big.png"), Buffer.concat([PNG, Buffer.alloc(4 * KiB * KiB - PNG.length)]));
    expect((await ask(dir, "@big.png")).code).toBe(0);
    expect(attachments()).toEqual([
      {
        type: "text",
        text: `<attachment source="big.png">\n(image, image/png, ${4 * KiB * KiB} bytes: not attached, the API takes images up to 3932160 bytes)\n</attachment>`,
      },
    ]);
  });
});
