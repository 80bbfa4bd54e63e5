/**
 * The release (issue 28), built once for this file by scripts/release.ts: every file's format read
 * from its header, SHA256SUMS, sizes, the darwin builds' ad-hoc signatures with every page hash
 * recomputed, and each Linux binary copied alone into an empty folder and run with only the
 * system PATH (arm64 under qemu-user): --version, mcp-init, -p with a stdio server's tool; for
 * linux-x64 also an HTTP server, host mode through the Agent SDK, an OAuth login, the session in
 * tmux, and install.sh. Darwin builds cannot run here; README says so.
 */
import { afterAll, beforeAll, test as bunTest, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { version } from "../../../package.json";
import { parseSums } from "../../../scripts/release/checksums.ts";
import { CS_ADHOC, checkCodeSignature } from "../../support/macho.ts";
import { exeFormat } from "../../support/exe-format.ts";
import { reply, startModelServer, text, toolUse, type ModelServer, type Step } from "../../support/model-server.ts";
import { buildRelease, CAN_RUN_ARM64, placeAlone, runExe, SYSTEM_PATH, userEnv } from "../../support/release.ts";
import { FIXTURE_SERVER, BUN, ROOT, tempDir } from "../../support/run.ts";
import { linuxX64Extras } from "./release-x64-extras.ts";

const BINARIES: Record<string, { kind: string; interpreter?: string }> = {
  "agent-linux-x64": { kind: "ELF x86-64", interpreter: "/lib64/ld-linux-x86-64.so.2" },
  "agent-linux-arm64": { kind: "ELF aarch64", interpreter: "/lib/ld-linux-aarch64.so.1" },
  "agent-linux-x64-baseline": { kind: "ELF x86-64", interpreter: "/lib64/ld-linux-x86-64.so.2" },
  "agent-darwin-x64": { kind: "Mach-O x86_64" },
  "agent-darwin-arm64": { kind: "Mach-O arm64" },
};
const MAX_BYTES = 120 * 2 ** 20;
/** qemu-user translates every instruction: generous, and never a reason to pass. */
const RUN_TIMEOUT_MS = 90_000;

let release: string;
let releaseStderr: string;
const models: ModelServer[] = [];
beforeAll(async () => {
  const built = await buildRelease();
  release = built.dir;
  releaseStderr = built.stderr;
  console.log(`release built in ${built.seconds.toFixed(1)} s${built.stderr ? `; it said:\n${built.stderr.trimEnd()}` : ""}`);
}, 300_000);
afterAll(() => {
  for (const m of models.splice(0)) m.stop();
});

/** A scripted model stopped after the file. */
function model(script: Step[]): ModelServer {
  const m = startModelServer(script);
  models.push(m);
  return m;
}

const headCommit = () => Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
const read = (name: string) => new Uint8Array(readFileSync(join(release, name)));

describe("the release folder", () => {
  test("holds one binary per platform, install.sh and SHA256SUMS, and nothing else", () => {
    expect(readdirSync(release).sort()).toEqual([...Object.keys(BINARIES), "SHA256SUMS", "install.sh"].sort());
    expect(statSync(join(release, "install.sh")).mode & 0o111).not.toBe(0);
  });

  test("each binary's header names its platform; the Linux ones ask for glibc's loader", () => {
    const seen = Object.fromEntries(Object.keys(BINARIES).map((n) => [n, exeFormat(read(n))]));
    const expected = Object.fromEntries(Object.entries(BINARIES).map(([n, b]) => [n, b.interpreter ? b : { ...b, executable: true }]));
    expect(seen).toEqual(expected);
  });

  test("SHA256SUMS has a sha256sum line for every other file, and `sha256sum -c` agrees", () => {
    const sums = parseSums(readFileSync(join(release, "SHA256SUMS"), "utf8"));
    expect([...sums.keys()].sort()).toEqual(
      readdirSync(release)
        .filter((n) => n !== "SHA256SUMS")
        .sort(),
    );
    const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: release, env: { PATH: SYSTEM_PATH } });
    expect(check.exitCode).toBe(0);
  });

  test("each binary is at most 120 MB", () => {
    const sizes = Object.fromEntries(Object.keys(BINARIES).map((n) => [n, statSync(join(release, n)).size]));
    for (const [name, size] of Object.entries(sizes)) expect({ name, over: size > MAX_BYTES, mb: +(size / 2 ** 20).toFixed(1) }).toMatchObject({ over: false });
  });
});

test("the release says nothing on stderr but which darwin build it re-signed", () => {
  // Bun 1.4.5 leaves darwin-x64 with its runtime's own, no longer matching, signature (README, Install).
  for (const line of releaseStderr.split("\n").filter(Boolean)) {
    expect(line).toMatch(/^release: agent-darwin-(x64|arm64): bun left a code signature that does not cover the executable; re-signed ad hoc$/);
  }
});

describe.each(["agent-darwin-x64", "agent-darwin-arm64"])("%s's code signature", (name) => {
  test("is ad hoc, covers every byte before it, and every page hash recomputes", () => {
    const sig = checkCodeSignature(read(name));
    expect({ ...sig, flags: sig.flags & CS_ADHOC }).toMatchObject({
      flags: CS_ADHOC,
      hashType: "sha256",
      codeLimit: sig.dataOffset,
      nCodeSlots: Math.ceil(sig.dataOffset / sig.pageSize),
      badPages: [],
      badSpecialSlots: [],
      linkeditCoversSignature: true,
      endsAtSignature: true,
    });
    // No other identity's blob (0x10000, a CMS signature) that would no longer match.
    expect(sig.blobTypes.filter((t) => t >= 0x10000)).toEqual([]);
  });
});

if (!CAN_RUN_ARM64) {
  console.warn(
    "qemu-user or the aarch64 libc is not installed: skipping the linux-arm64 binary's runs (apt-get install qemu-user libc6-arm64-cross adds them)",
  );
}

describe.each(["agent-linux-x64", "agent-linux-arm64", "agent-linux-x64-baseline"])("%s alone in an empty folder", (name) => {
  // The arm64 build runs only under qemu-user: an optional system package, as tmux is for the session tests.
  const runnable = !name.includes("arm64") || CAN_RUN_ARM64;
  const test = runnable ? bunTest : bunTest.skip;
  let exe: string[];
  beforeAll(() => {
    if (runnable) exe = placeAlone(release, name);
  });

  test(
    "--version names this build",
    async () => {
      const r = await runExe(exe, ["--version"], { cwd: tempDir(), env: userEnv(), timeoutMs: RUN_TIMEOUT_MS });
      expect(r.stderr).toBe("");
      expect(r.stdout).toMatch(new RegExp(`^${version.replaceAll(".", "\\.")} \\(agent, ${headCommit()}(-dirty)?, \\d{4}-\\d{2}-\\d{2}\\)\\n$`));
      expect(r.code).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "mcp-init prints the initialize request for a fixture",
    async () => {
      const cwd = tempDir();
      const serverResponse = { jsonrpc: "2.0", id: 4, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} } } };
      writeFileSync(join(cwd, "case.json"), JSON.stringify({ id: 4, serverResponse }));
      const r = await runExe(exe, ["mcp-init", "case.json"], { cwd, env: userEnv(), timeoutMs: RUN_TIMEOUT_MS });
      expect(r.stdout).toBe(
        '{"request":{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{},"sampling":{}},"clientInfo":{"name":"claude-code","version":"1.0.0"}}},"capabilities":{"tools":{}}}\n',
      );
      expect(r.code).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "-p calls a stdio server's tool and prints the answer",
    async () => {
      const cwd = tempDir();
      writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { fx: { command: BUN, args: [FIXTURE_SERVER] } } }));
      const m = model([reply(toolUse("mcp__fx__echo", { text: `hello from ${name}` })), reply(text("the tool answered"))]);
      const r = await runExe(exe, ["-p", "call echo"], {
        cwd,
        env: userEnv({ ANTHROPIC_BASE_URL: m.url, ANTHROPIC_API_KEY: "test-key" }),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "the tool answered\n", ""]);
      expect(m.requests[1]!.body.messages.at(-1).content[0]).toMatchObject({ type: "tool_result", content: `hello from ${name}` });
    },
    RUN_TIMEOUT_MS,
  );
});

describe("agent-linux-x64 alone in an empty folder, the rest of what it does", () => {
  let exe: string[];
  beforeAll(() => {
    exe = placeAlone(release, "agent-linux-x64");
  });
  linuxX64Extras(() => ({ exe, release, model }));
});
