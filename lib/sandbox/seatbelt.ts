/**
 * The same sandbox policy (policy.ts) as a Seatbelt profile for macOS's `sandbox-exec -p`: deny by
 * default; reading everywhere but `denyRead` (with `allowRead` re-opened); writing only in the
 * project, the temp folder and `allowWrite`, never to the protected paths or `denyWrite` (Seatbelt
 * refuses creating a path as well as changing it, so no masks are needed); the network only to the
 * filtering proxy's port on loopback. Written here and pinned by unit tests; nothing runs it on Linux.
 */
import { PROTECTED_FOLDERS, protectedPaths, type SandboxPolicy } from "./policy.ts";

/** On macOS the proxy listens on a loopback TCP port (no network namespace, so no bridge). */
export type SeatbeltNetwork = { kind: "none" } | { kind: "proxy"; port: number };

/** A string as an SBPL literal. */
const q = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
/** A path as a filter: a folder (and all below) or one file. */
const filter = (path: string, folder: boolean) => (folder ? `(subpath ${q(path)})` : `(literal ${q(path)})`);

export interface SeatbeltOptions {
  network: SeatbeltNetwork;
  /** git's core.hooksPath of the project, resolved. */
  hooksPath?: string;
}

export function seatbeltProfile(policy: SandboxPolicy, opts: SeatbeltOptions): string {
  const project = policy.projectDir;
  const writable = [project, policy.tempDir, ...policy.allowWrite];
  const guarded = [
    ...protectedPaths(project, opts.hooksPath).map((p) => filter(p, PROTECTED_FOLDERS.has(p.slice(project.length + 1)) || p === opts.hooksPath)),
    ...policy.denyWrite.map((p) => `(subpath ${q(p)})`),
  ];
  const lines = [
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
    ...(policy.denyRead.length ? [`(deny file-read* ${policy.denyRead.map((p) => `(subpath ${q(p)})`).join(" ")})`] : []),
    ...(policy.allowRead.length ? [`(allow file-read* ${policy.allowRead.map((p) => `(subpath ${q(p)})`).join(" ")})`] : []),
    "",
    "; writing: the project, the temp folder and allowWrite; never the protected paths or denyWrite, existing or not",
    `(allow file-write* ${writable.map((p) => `(subpath ${q(p)})`).join(" ")} (literal "/dev/null") (literal "/dev/tty"))`,
    `(deny file-write* ${guarded.join(" ")})`,
    "",
    "; network: nothing but the filtering proxy on loopback",
    ...(opts.network.kind === "proxy" ? [`(allow network-outbound (remote ip ${q(`localhost:${opts.network.port}`)}))`] : ["; (no network)"]),
    "",
  ];
  return lines.join("\n");
}
