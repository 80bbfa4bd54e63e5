/**
 * The Seatbelt profile written from a sandbox policy, pinned whole: it is never run here (Linux),
 * so its text is what is checked.
 */
import { expect, test } from "bun:test";
import { seatbeltProfile } from "../../../lib/sandbox/seatbelt.ts";
import type { SandboxPolicy } from "../../../lib/sandbox/policy.ts";

const policy: SandboxPolicy = {
  projectDir: "/Users/u/p",
  tempDir: "/private/tmp/agent-sandbox-1",
  allowWrite: ["/Users/u/.cache/x"],
  denyWrite: ["/Users/u/p/secrets"],
  denyRead: ["/Users/u/.ssh"],
  allowRead: ["/Users/u/.ssh/known_hosts"],
  network: { kind: "none" },
};

test("the whole profile: deny by default, reads but denyRead, writes in the project but its protected paths, the proxy's port only", () => {
  const P = "/Users/u/p";
  const protectedFiles = [
    ".mcp.json",
    ".gitmodules",
    ".envrc",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".gitconfig",
  ];
  expect(seatbeltProfile(policy, { network: { kind: "proxy", port: 53128 }, hooksPath: `${P}/tools/hooks` })).toBe(
    [
      "(version 1)",
      "(deny default)",
      "(allow process-exec process-fork)",
      "(allow signal (target same-sandbox))",
      "(allow process-info* (target same-sandbox))",
      "(allow sysctl-read)",
      "(allow mach-lookup)",
      "(allow ipc-posix-shm)",
      "(allow pseudo-tty)",
      '(allow file-ioctl (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
      "",
      "; reading: everywhere but denyRead, with allowRead inside it again",
      "(allow file-read*)",
      '(deny file-read* (subpath "/Users/u/.ssh"))',
      '(allow file-read* (subpath "/Users/u/.ssh/known_hosts"))',
      "",
      "; writing: the project, the temp folder and allowWrite; never the protected paths or denyWrite, existing or not",
      '(allow file-write* (subpath "/Users/u/p") (subpath "/private/tmp/agent-sandbox-1") (subpath "/Users/u/.cache/x") (literal "/dev/null") (literal "/dev/tty"))',
      `(deny file-write* (subpath "${P}/.claude") (subpath "${P}/.vscode") (subpath "${P}/.idea") ${protectedFiles.map((n) => `(literal "${P}/${n}")`).join(" ")} (subpath "${P}/.git/hooks") (literal "${P}/.git/config") (subpath "${P}/tools/hooks") (subpath "${P}/secrets"))`,
      "",
      "; network: nothing but the filtering proxy on loopback",
      '(allow network-outbound (remote ip "localhost:53128"))',
      "",
    ].join("\n"),
  );
});

test("no network, and quotes and backslashes in paths escaped", () => {
  const text = seatbeltProfile({ ...policy, projectDir: '/Users/u/a "b"\\c', denyRead: [], allowRead: [] }, { network: { kind: "none" } });
  expect(text).toContain('(subpath "/Users/u/a \\"b\\"\\\\c")');
  expect(text).toContain("; (no network)");
  expect(text).not.toContain("network-outbound");
  expect(text).not.toContain("(deny file-read*");
});
