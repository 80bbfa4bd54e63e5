/**
 * The `sandbox` settings keys: checked key by key (a wrong type drops that key alone), merged over
 * the files (a scalar from the highest file, lists concatenated), and which of them loosen a
 * repository's settings (they then wait for trust; the ones that only narrow never do).
 */
import { describe, expect, test } from "bun:test";
import { checkSandbox, mergeSandbox } from "../../../../lib/agent/settings/sandbox-keys.ts";
import { looseningItems, looseningKeys, needsTrust } from "../../../../lib/agent/settings/loosening.ts";
import type { SettingsDoc } from "../../../../lib/agent/settings/schema.ts";

describe("checkSandbox", () => {
  test("keeps the keys of the right type, one problem per key dropped, unknown keys ignored", () => {
    const problems: string[] = [];
    const doc = checkSandbox(
      {
        enabled: true,
        failIfUnavailable: "yes",
        excludedCommands: ["docker:*"],
        network: { allowedDomains: ["a.com"], deniedDomains: "b.com", httpProxyPort: 1 },
        filesystem: { denyRead: ["~/.ssh"] },
        mcpServers: { enabled: true, servers: { web: { allowedDomains: ["api.x"] }, bad: { enabled: "no" } } },
        seccomp: {},
      },
      (key) => problems.push(key),
    );
    expect(doc).toEqual({
      enabled: true,
      excludedCommands: ["docker:*"],
      network: { allowedDomains: ["a.com"] },
      filesystem: { denyRead: ["~/.ssh"] },
      mcpServers: { enabled: true, servers: { web: { enabled: undefined, allowedDomains: ["api.x"] } } },
    });
    expect(problems).toEqual(["sandbox.failIfUnavailable", "sandbox.network.deniedDomains", "sandbox.mcpServers.servers.bad"]);
  });
});

describe("mergeSandbox", () => {
  const file = (scope: string, sandbox: SettingsDoc["sandbox"]) => ({ scope, path: `/${scope}.json`, root: "/r", doc: { sandbox } });
  test("the highest file's scalar, lists from every file; an untrusted repository's loosening keys are left out", () => {
    const files = [
      file("flag", { failIfUnavailable: true }),
      file("project", { enabled: false, autoAllowBashIfSandboxed: true, network: { allowedDomains: ["evil.com"], deniedDomains: ["ads.com"] } }),
      file("user", { enabled: true, network: { allowedDomains: ["github.com"] }, filesystem: { allowWrite: ["~/.cache"] } }),
    ];
    const trusted = mergeSandbox(files, () => true);
    expect([trusted.enabled?.value, trusted.autoAllowBashIfSandboxed, trusted.allowedDomains]).toEqual([false, true, ["evil.com", "github.com"]]);
    const held = mergeSandbox(files, (f) => f.scope !== "project");
    expect([held.enabled?.value, held.enabled?.file.scope, held.autoAllowBashIfSandboxed, held.allowedDomains, held.deniedDomains]).toEqual([
      true,
      "user",
      false,
      ["github.com"],
      ["ads.com"],
    ]);
    expect(held.failIfUnavailable?.value).toBe(true);
    expect(held.allowWrite.map((e) => e.value)).toEqual(["~/.cache"]);
  });

  test("network.strictAllowlist from any file; allowManagedDomainsOnly from managed settings keeps only their domains", () => {
    const files = [
      file("managed", { network: { allowManagedDomainsOnly: true, allowedDomains: ["corp.example"] } }),
      file("user", { network: { strictAllowlist: true, allowedDomains: ["github.com"] } }),
    ];
    const merged = mergeSandbox(files, () => true);
    expect([merged.strictAllowlist, merged.managedDomainsOnly, merged.allowedDomains]).toEqual([true, true, ["corp.example"]]);
    const notManaged = mergeSandbox([file("user", { network: { allowManagedDomainsOnly: true, allowedDomains: ["github.com"] } })], () => true);
    expect([notManaged.managedDomainsOnly, notManaged.allowedDomains]).toEqual([false, ["github.com"]]);
  });

  test("a held repository may switch a server's sandbox on, never off", () => {
    const files = [
      file("project", { mcpServers: { servers: { a: { enabled: true }, b: { enabled: false, allowedDomains: ["x.com"] } } } }),
      file("user", { mcpServers: { servers: { b: { enabled: true } } } }),
    ];
    expect(mergeSandbox(files, (f) => f.scope !== "project").mcpServers).toEqual({
      a: { enabled: true, scope: "project" },
      b: { enabled: true, scope: "user" },
    });
  });
});

describe("sandbox keys that loosen", () => {
  test("switching it off, letting commands out, more paths or domains loosen; switching it on and narrowing do not", () => {
    expect(
      looseningKeys({
        sandbox: { enabled: true, failIfUnavailable: true, filesystem: { denyRead: ["x"], denyWrite: ["y"] }, network: { deniedDomains: ["z"] } },
      }),
    ).toEqual([]);
    expect(
      looseningKeys({
        sandbox: {
          enabled: false,
          autoAllowBashIfSandboxed: true,
          allowUnsandboxedCommands: true,
          excludedCommands: ["docker:*"],
          network: { allowedDomains: ["a.com"] },
          filesystem: { allowWrite: ["/"], allowRead: ["~"] },
          mcpServers: { enabled: false },
        },
      }),
    ).toEqual([
      "sandbox.enabled",
      "sandbox.autoAllowBashIfSandboxed",
      "sandbox.allowUnsandboxedCommands",
      "sandbox.excludedCommands",
      "sandbox.network.allowedDomains",
      "sandbox.filesystem.allowWrite",
      "sandbox.filesystem.allowRead",
      "sandbox.mcpServers",
    ]);
    expect(needsTrust({ sandbox: { network: { allowedDomains: ["a.com"] } } }, false)).toBe(true);
    expect(looseningItems({ sandbox: { excludedCommands: ["docker:*"] } }).items).toEqual(['sandbox.excludedCommands ["docker:*"]']);
  });

  test("a file without loosening sandbox keys keeps its fingerprint parts", () => {
    expect(JSON.stringify(looseningItems({ env: { A: "1" }, sandbox: { enabled: true } }).parts)).toBe(JSON.stringify({ env: { A: "1" } }));
  });
});
