/**
 * The sandbox's network, in -p through the real program: nothing leaves the namespace except through
 * our filtering proxy (reached by our own executable as the in-namespace bridge). `curl` to a
 * loopback HTTP server by a name on `network.allowedDomains` (or a `WebFetch(domain:…)` allow rule)
 * gets its page; by a name on no list, or on `deniedDomains`, it gets the proxy's refusal; a
 * direct connection that ignores the proxy variables gets nowhere. A repository's allowedDomains and
 * allow rules need the folder's trust (the tests trust it); without trust they are held, and refused.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, toolUse } from "../../support/model-server.ts";
import { sandboxRuns } from "../../support/sandbox.ts";
import { tempDir } from "../../support/run.ts";
import { makeTestCerts, OPENSSL } from "../../support/tls-certs.ts";
import { place, projectSettings, resultsOf, runPrint, trust } from "./settings-support.ts";

const runs = sandboxRuns("the sandbox network tests");
const page = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("PAGE-FROM-HOST\n") });
afterAll(() => page.stop(true));
const bash = (command: string) => reply(toolUse("Bash", { command }));
const contentOf = (run: Awaited<ReturnType<typeof runPrint>>, n: number) => String(resultsOf(run, n)[0]?.content ?? "");
const curl = (host: string) => `curl -sS -m 20 http://${host}:${page.port}/`;

describe.skipIf(!runs)("the sandbox's network", () => {
  test("allowedDomains lets curl through the proxy; a name on no list and a direct connection get nowhere", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true, network: { allowedDomains: ["localhost"] } } });
    trust(p);
    const run = await runPrint(p, [
      bash(curl("localhost")),
      bash(`${curl("127.0.0.1")}; echo "exit=$?"`),
      bash(`curl -sS -m 5 --noproxy '*' http://127.0.0.1:${page.port}/; echo "exit=$?"`),
    ]);
    expect(contentOf(run, 0)).toBe("PAGE-FROM-HOST");
    expect(contentOf(run, 1)).toContain("the sandbox refused 127.0.0.1: not among its allowed domains");
    // -p asks nobody: the refusal is also one stderr line, once per host, naming the key that opens it.
    const lines = run.stderr.split("\n").filter((l) => l.startsWith("sandbox: refused"));
    expect(lines).toEqual([
      "sandbox: refused a command's connection to 127.0.0.1: not in sandbox.network.allowedDomains (add it there, or a WebFetch(domain:127.0.0.1) allow rule)",
    ]);
    expect(contentOf(run, 1)).not.toContain("PAGE-FROM-HOST");
    expect(contentOf(run, 2)).not.toContain("PAGE-FROM-HOST");
    expect(contentOf(run, 2)).toMatch(/exit=[1-9]/);
  });

  test("a WebFetch(domain:…) allow rule opens a domain; deniedDomains closes it, whatever the allow list says", async () => {
    const p = place();
    projectSettings(p, {
      sandbox: { enabled: true, network: { deniedDomains: ["127.0.0.1"], allowedDomains: ["*", "localhost"] } },
      permissions: { allow: [] },
    });
    const q = place();
    projectSettings(q, { sandbox: { enabled: true }, permissions: { allow: ["WebFetch(domain:localhost)"] } });
    trust(p);
    trust(q);
    const denied = await runPrint(p, [bash(curl("127.0.0.1")), bash(curl("localhost"))]);
    expect(contentOf(denied, 0)).toContain("the sandbox refused 127.0.0.1");
    expect(denied.stderr).toContain("sandbox: refused a command's connection to 127.0.0.1: sandbox.network.deniedDomains or a WebFetch deny rule names it");
    expect(contentOf(denied, 1)).toBe("PAGE-FROM-HOST");
    const viaRule = await runPrint(q, [bash(curl("localhost"))]);
    expect(contentOf(viaRule, 0)).toBe("PAGE-FROM-HOST");
  });

  test("a wildcard allowed domain does not lead into the host's own services: a loopback or link-local address needs its exact name", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true, network: { allowedDomains: ["*"] } } });
    trust(p);
    const run = await runPrint(p, [
      bash(`${curl("localhost")}; echo "exit=$?"`),
      bash(`${curl("127.0.0.1")}; echo "exit=$?"`),
      bash(`curl -sS -m 20 http://169.254.169.254/latest/meta-data/; echo "exit=$?"`),
      bash(`curl -sSk -m 20 https://localhost:${page.port}/; echo "exit=$?"`),
    ]);
    for (let i = 0; i < 4; i++) expect(contentOf(run, i)).not.toContain("PAGE-FROM-HOST");
    expect(contentOf(run, 0)).toContain("the sandbox refused localhost: it leads to");
    expect(contentOf(run, 1)).toContain("the sandbox refused 127.0.0.1: it leads to");
    expect(contentOf(run, 3)).toMatch(/exit=[1-9]/);
    expect(contentOf(run, 2)).toContain("the sandbox refused 169.254.169.254: it leads to");
  });

  test.skipIf(!OPENSSL)("HTTPS goes through the proxy as a CONNECT tunnel: allowed by name, refused by another", async () => {
    const certs = makeTestCerts()!;
    const tls = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: Bun.file(certs.selfSigned.cert), key: Bun.file(certs.selfSigned.key) },
      fetch: () => new Response("TLS-PAGE\n"),
    });
    try {
      const p = place();
      projectSettings(p, { sandbox: { enabled: true, network: { allowedDomains: ["localhost"] } } });
      trust(p);
      // -k: the test certificate is self-signed (and made for 127.0.0.1); what is checked is the tunnel.
      const run = await runPrint(p, [
        bash(`curl -sSk -m 20 https://localhost:${tls.port}/`),
        bash(`curl -sSk -m 20 https://127.0.0.1:${tls.port}/; echo "exit=$?"`),
      ]);
      expect(contentOf(run, 0)).toBe("TLS-PAGE");
      expect(contentOf(run, 1)).not.toContain("TLS-PAGE");
      expect(contentOf(run, 1)).toMatch(/403|exit=[1-9]/);
    } finally {
      tls.stop(true);
    }
  });

  test("a host service's Unix socket (here the SSH agent's folder) cannot be reached from inside", async () => {
    const dir = tempDir("agent-ssh-");
    const socket = join(dir, "agent.sock");
    const service = Bun.serve({ unix: socket, fetch: () => new Response("SOCKET-SERVICE") });
    try {
      const p = place();
      projectSettings(p, { sandbox: { enabled: true } });
      const run = await runPrint(p, [bash(`curl -sS -m 20 --unix-socket "$SSH_AUTH_SOCK" http://x/; echo "exit=$?"`)], [], { env: { SSH_AUTH_SOCK: socket } });
      expect(contentOf(run, 0)).not.toContain("SOCKET-SERVICE");
      expect(contentOf(run, 0)).toMatch(/exit=[1-9]/);
      // Outside the sandbox the same socket answers: the test can fail.
      expect(await (await fetch("http://x/", { unix: socket } as RequestInit)).text()).toBe("SOCKET-SERVICE");
    } finally {
      service.stop(true);
    }
  });

  test("an untrusted repository's allowedDomains are held: one line, and the domain is refused", async () => {
    const p = place();
    projectSettings(p, { sandbox: { enabled: true, network: { allowedDomains: ["localhost"] } } });
    const run = await runPrint(p, [bash(curl("localhost"))]);
    expect(run.stderr).toContain("Ignoring 1 sandbox.network.allowedDomains entry from .claude/settings.json: this workspace has not been trusted.");
    expect(contentOf(run, 0)).toContain("the sandbox refused localhost");
  });
});
