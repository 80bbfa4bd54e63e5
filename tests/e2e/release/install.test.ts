/**
 * install.sh (issue 28, "install.sh"), run by sh on a small release folder made here: the
 * platform comes from a fake `uname` on PATH, the "binary" is a shell script, SHA256SUMS is
 * written by the release's own code. The release test installs a real build the same way.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256File, writeSums } from "../../../scripts/release/checksums.ts";
import { INSTALL_SH } from "../../../scripts/release.ts";
import { tempDir } from "../../support/run.ts";

const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";
const AGENT = "#!/bin/sh\necho 'agent from the release'\n";

/** A release folder holding install.sh, agent-linux-x64 (a script) and SHA256SUMS. */
function releaseFolder(): string {
  const dir = tempDir("release-");
  copyFileSync(INSTALL_SH, join(dir, "install.sh"));
  writeFileSync(join(dir, "agent-linux-x64"), AGENT, { mode: 0o755 });
  writeSums(dir);
  return dir;
}

/** A folder with a `uname` answering -s with `os` and -m with `arch`. */
function fakeUname(os: string, arch: string): string {
  const bin = tempDir("uname-");
  writeFileSync(join(bin, "uname"), `#!/bin/sh\ncase "$1" in -s) echo '${os}' ;; -m) echo '${arch}' ;; *) exit 2 ;; esac\n`);
  chmodSync(join(bin, "uname"), 0o755);
  return bin;
}

interface Install {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function install(args: string[], o: { os?: string; arch?: string; path?: string; stdin?: string; script?: string } = {}): Promise<Install> {
  const bin = fakeUname(o.os ?? "Linux", o.arch ?? "x86_64");
  const argv = o.stdin === undefined ? ["sh", o.script!, ...args] : ["sh", "-s", "--", ...args];
  const proc = Bun.spawn(argv, {
    cwd: tempDir("cwd-"),
    env: { HOME: tempDir("home-"), PATH: `${bin}:${o.path ?? SYSTEM_PATH}` },
    stdin: o.stdin === undefined ? "ignore" : new TextEncoder().encode(o.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Asserts a refusal: exit 1, one stderr line matching `pattern`, nothing on stdout, and no staging folder left in `prefix`. */
function expectRefused(r: Install, pattern: RegExp, prefix?: string): void {
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^install\.sh: [^\n]+\n$/);
  expect(r.stderr).toMatch(pattern);
  expect(r.code).toBe(1);
  if (prefix && existsSync(prefix)) expect(readdirSync(prefix).filter((n) => n.startsWith(".agent-install."))).toEqual([]);
}

describe("install.sh from its own folder", () => {
  test("installs this platform's binary into the prefix, verified, and says where and that the folder is not on PATH", async () => {
    const rel = releaseFolder();
    const prefix = join(tempDir("prefix-"), "bin");
    const r = await install(["--prefix", prefix], { script: join(rel, "install.sh") });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `installed agent-linux-x64 as ${prefix}/agent\n${prefix} is not on PATH: add it (export PATH="${prefix}:$PATH") or run ${prefix}/agent\n`,
    );
    expect(readFileSync(join(prefix, "agent"), "utf8")).toBe(AGENT);
    expect(Bun.spawnSync([join(prefix, "agent")]).stdout.toString()).toBe("agent from the release\n");
    expect(readdirSync(prefix).sort()).toEqual([".agent.install-sha256", "agent"]);
    expect(readFileSync(join(prefix, ".agent.install-sha256"), "utf8")).toBe(`${sha256File(join(rel, "agent-linux-x64"))}\n`);
  });

  test("a prefix on PATH is named so; installing over its own install needs no --force", async () => {
    const rel = releaseFolder();
    const prefix = tempDir("prefix-");
    const first = await install(["--prefix", prefix], { script: join(rel, "install.sh"), path: `${prefix}:${SYSTEM_PATH}` });
    expect(first.code).toBe(0);
    expect(first.stdout).toEndWith(`${prefix} is on PATH: run \`agent\`\n`);
    writeFileSync(join(rel, "agent-linux-x64"), `${AGENT}# 0.2.1\n`, { mode: 0o755 });
    writeSums(rel);
    const again = await install(["--prefix", prefix], { script: join(rel, "install.sh") });
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(readFileSync(join(prefix, "agent"), "utf8")).toEndWith("# 0.2.1\n");
  });

  test("an agent it did not install is kept unless --force", async () => {
    const rel = releaseFolder();
    const prefix = tempDir("prefix-");
    writeFileSync(join(prefix, "agent"), "someone else's agent\n");
    expectRefused(
      await install(["--prefix", prefix], { script: join(rel, "install.sh") }),
      /agent exists and was not installed by install\.sh: pass --force/,
      prefix,
    );
    expect(readFileSync(join(prefix, "agent"), "utf8")).toBe("someone else's agent\n");
    const forced = await install(["--prefix", prefix, "--force"], { script: join(rel, "install.sh") });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(prefix, "agent"), "utf8")).toBe(AGENT);
    // Replaced after our install: the recorded hash no longer matches, so it is someone else's again.
    writeFileSync(join(prefix, "agent"), "edited by hand\n");
    expectRefused(await install(["--prefix", prefix], { script: join(rel, "install.sh") }), /not installed by install\.sh/, prefix);
  });

  test("a checksum mismatch is refused and nothing is installed", async () => {
    const rel = releaseFolder();
    writeFileSync(join(rel, "agent-linux-x64"), "#!/bin/sh\necho tampered\n");
    const prefix = tempDir("prefix-");
    const r = await install(["--prefix", prefix], { script: join(rel, "install.sh") });
    expectRefused(r, /checksum mismatch for agent-linux-x64 .*SHA256SUMS says [0-9a-f]{64}, the file is [0-9a-f]{64}/, prefix);
    expect(readdirSync(prefix)).toEqual([]);
  });

  test("an unknown platform, a platform without a build, or a name missing from SHA256SUMS is refused", async () => {
    const rel = releaseFolder();
    const prefix = tempDir("prefix-");
    const script = join(rel, "install.sh");
    expectRefused(await install(["--prefix", prefix], { script, os: "FreeBSD" }), /unsupported operating system: FreeBSD/, prefix);
    expectRefused(await install(["--prefix", prefix], { script, arch: "riscv64" }), /unsupported architecture: riscv64/, prefix);
    expectRefused(await install(["--prefix", prefix], { script, os: "Darwin", arch: "arm64" }), /agent-darwin-arm64 is not in /, prefix);
    writeFileSync(join(rel, "agent-linux-arm64"), AGENT);
    expectRefused(await install(["--prefix", prefix], { script, arch: "aarch64" }), /SHA256SUMS has no line for agent-linux-arm64/, prefix);
    expect(readdirSync(prefix)).toEqual([]);
  });

  test("bad arguments get one line", async () => {
    const script = join(releaseFolder(), "install.sh");
    expectRefused(await install(["--prefx", "/tmp/x"], { script }), /unknown argument: --prefx/);
    expectRefused(await install(["--from"], { script }), /--from needs a base URL/);
  });
});

describe("install.sh piped, with --from", () => {
  let server: ReturnType<typeof Bun.serve>;
  let rel: string;
  const requests: string[] = [];
  beforeAll(() => {
    rel = releaseFolder();
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(req) {
        const path = new URL(req.url).pathname;
        requests.push(path);
        const file = join(rel, path.replace(/^\/v1\//, ""));
        return path.startsWith("/v1/") && existsSync(file) ? new Response(Bun.file(file)) : new Response("not found", { status: 404 });
      },
    });
  });
  afterAll(() => server.stop(true));

  test("downloads SHA256SUMS and the binary over http from loopback, verifies, installs", async () => {
    const prefix = tempDir("prefix-");
    requests.length = 0;
    const r = await install(["--prefix", prefix, "--from", `http://127.0.0.1:${server.port}/v1/`], { stdin: readFileSync(INSTALL_SH, "utf8") });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(requests).toEqual(["/v1/SHA256SUMS", "/v1/agent-linux-x64"]);
    expect(readFileSync(join(prefix, "agent"), "utf8")).toBe(AGENT);
  });

  // wget is not on every machine; curl is (the tests above use it).
  test.skipIf(!Bun.which("wget", { PATH: SYSTEM_PATH }))("with only wget and the few tools it names on PATH, no curl, it installs the same way", async () => {
    const tools = tempDir("tools-");
    const needed = ["sh", "sha256sum", "cp", "mv", "mkdir", "rm", "chmod", "wget"];
    for (const t of needed) symlinkSync(Bun.which(t, { PATH: SYSTEM_PATH })!, join(tools, t));
    const prefix = tempDir("prefix-");
    requests.length = 0;
    const r = await install(["--prefix", prefix, "--from", `http://127.0.0.1:${server.port}/v1`], { stdin: readFileSync(INSTALL_SH, "utf8"), path: tools });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(requests).toEqual(["/v1/SHA256SUMS", "/v1/agent-linux-x64"]);
    expect(readFileSync(join(prefix, "agent"), "utf8")).toBe(AGENT);
  });

  test("a failed download is refused with its URL", async () => {
    const prefix = tempDir("prefix-");
    const from = `http://127.0.0.1:${server.port}/missing`;
    expectRefused(
      await install(["--prefix", prefix, "--from", from], { stdin: readFileSync(INSTALL_SH, "utf8") }),
      /download failed: http:\/\/127\.0\.0\.1:\d+\/missing\/SHA256SUMS \(curl: \(22\).*404\)/,
      prefix,
    );
    expect(readdirSync(prefix)).toEqual([]);
  });

  test("plain http off loopback, and other schemes, are refused before any download", async () => {
    const stdin = readFileSync(INSTALL_SH, "utf8");
    for (const from of [
      "http://example.com/r",
      `http://127.0.0.1:${server.port}@example.com/r`,
      "http://localhost.example.com/r",
      "ftp://example.com/r",
      "/srv/r",
    ]) {
      expectRefused(
        await install(["--prefix", tempDir("prefix-"), "--from", from], { stdin }),
        /--from must be an https:\/\/ URL \(plain http only on loopback\)/,
      );
    }
  });

  test("piped without --from and with no base URL built in, it says what to pass", async () => {
    expectRefused(await install(["--prefix", tempDir("prefix-")], { stdin: readFileSync(INSTALL_SH, "utf8") }), /pass --from BASE_URL/);
  });
});

test("the release's install.sh can carry a built-in https base URL, and only https", async () => {
  const { installScript } = await import("../../../scripts/release.ts");
  expect(installScript("https://example.com/agent/0.2.0/")).toContain("\nBUILT_IN_FROM='https://example.com/agent/0.2.0'\n");
  expect(() => installScript("http://example.com/x")).toThrow("--base-url must be an https:// URL");
});
