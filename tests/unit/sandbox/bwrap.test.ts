/**
 * The bubblewrap command line of a sandbox policy, pinned: namespaces, the read-only root, the
 * writable paths, protected paths kept read-only (existing) or masked (missing), unreadable paths.
 */
import { describe, expect, test } from "bun:test";
import { selfBinds } from "../../../lib/sandbox/git-dirs.ts";
import { bwrapPlan, type PathKind } from "../../../lib/sandbox/bwrap.ts";
import type { SandboxPolicy } from "../../../lib/sandbox/policy.ts";
import { coreHooksPath } from "../../../lib/sandbox/git-hooks-path.ts";

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  projectDir: "/p",
  tempDir: "/t",
  allowWrite: [],
  denyWrite: [],
  denyRead: [],
  allowRead: [],
  network: { kind: "none" },
  ...over,
});

/** A disk holding exactly `entries` (path → kind) and their parent folders. */
const disk =
  (entries: Record<string, PathKind>) =>
  (path: string): PathKind => {
    if (entries[path]) return entries[path]!;
    return Object.keys(entries).some((p) => p.startsWith(`${path}/`)) || path === "/" ? "dir" : "missing";
  };

describe("bwrapPlan", () => {
  test("a project with a .git folder: every namespace, / read-only, project and temp writable, protected paths read-only or masked", () => {
    const kind = disk({ "/p": "dir", "/t": "dir", "/p/.mcp.json": "file", "/p/.git": "dir", "/p/.git/config": "file", "/p/.claude": "dir" });
    const plan = bwrapPlan(policy(), { cwd: "/p/sub", kind, files: ["/tmp/cwd-1"] });
    expect(plan.args).toEqual([
      ...["--new-session", "--die-with-parent", "--unshare-user", "--unshare-pid", "--unshare-net", "--cap-drop", "ALL"],
      ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
      ...["--bind", "/t", "/t", "--bind", "/p", "/p", "--bind", "/tmp/cwd-1", "/tmp/cwd-1"],
      // .git onto itself: a mount cannot be renamed away and replaced by a .git of the command's own.
      ...["--bind", "/p/.git", "/p/.git"],
      ...["--ro-bind", "/p/.claude", "/p/.claude"],
      ...["--tmpfs", "/p/.vscode", "--remount-ro", "/p/.vscode", "--tmpfs", "/p/.idea", "--remount-ro", "/p/.idea"],
      ...["--ro-bind", "/p/.mcp.json", "/p/.mcp.json"],
      ...["--ro-bind", "/dev/null", "/p/.gitmodules", "--ro-bind", "/dev/null", "/p/.envrc"],
      ...[".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".gitconfig"].flatMap((n) => [
        "--ro-bind",
        "/dev/null",
        `/p/${n}`,
      ]),
      ...["--tmpfs", "/p/.git/hooks", "--remount-ro", "/p/.git/hooks", "--ro-bind", "/p/.git/config", "/p/.git/config"],
      ...["--setenv", "TMPDIR", "/t", "--chdir", "/p/sub", "--"],
    ]);
    expect(plan.gitDirs).toEqual(["/p/.git"]);
    expect(plan.placeholders.map((p) => `${p.path}${p.folder ? "/" : ""}`)).toEqual([
      "/p/.vscode/",
      "/p/.idea/",
      "/p/.gitmodules",
      "/p/.envrc",
      "/p/.bashrc",
      "/p/.bash_profile",
      "/p/.bash_login",
      "/p/.bash_logout",
      "/p/.profile",
      "/p/.zshrc",
      "/p/.zshenv",
      "/p/.zprofile",
      "/p/.zlogin",
      "/p/.gitconfig",
      "/p/.git/hooks/",
    ]);
  });

  test("no .git: the whole .git is masked as an empty read-only folder; a .git file (a worktree's link) stays read-only", () => {
    const none = bwrapPlan(policy(), { cwd: "/p", kind: disk({ "/p/x": "file", "/t": "dir" }) });
    expect(none.args.join(" ")).toContain("--tmpfs /p/.git --remount-ro /p/.git");
    expect(none.args.join(" ")).not.toContain("/p/.git/hooks");
    const link = bwrapPlan(policy(), { cwd: "/p", kind: disk({ "/p/.git": "file", "/t": "dir" }) });
    expect(link.args.join(" ")).toContain("--ro-bind /p/.git /p/.git");
  });

  test("allowWrite is writable; denyWrite and core.hooksPath inside it stay read-only; a missing hooks folder's missing parent is masked", () => {
    const kind = disk({ "/p/.git/config": "file", "/t": "dir", "/w/out": "file", "/w/keep": "file", "/w/.bashrc": "file" });
    const plan = bwrapPlan(policy({ allowWrite: ["/w", "/gone"], denyWrite: ["/w/keep", "/elsewhere/x"] }), { cwd: "/p", kind, hooksPath: "/p/tools/hooks" });
    const text = plan.args.join(" ");
    expect(text).toContain("--bind /w /w");
    expect(text).not.toContain("/gone"); // nothing to bind
    expect(text).toContain("--ro-bind /w/keep /w/keep");
    // An existing protected name at the top of an allowWrite folder stays read-only; missing ones there are not masked.
    expect(text).toContain("--ro-bind /w/.bashrc /w/.bashrc");
    expect(text).not.toContain("/w/.envrc");
    expect(text).not.toContain("/elsewhere"); // already read-only
    expect(text).toContain("--tmpfs /p/tools --remount-ro /p/tools");
  });

  test("denyRead: a folder becomes an empty read-only folder, a file reads as nothing; allowRead re-opens a path inside", () => {
    const kind = disk({ "/t": "dir", "/p/.git/config": "file", "/home/u/.ssh/id": "file", "/home/u/.ssh/known_hosts": "file", "/p/.env": "file" });
    const plan = bwrapPlan(policy({ denyRead: ["/home/u/.ssh", "/p/.env", "/nothing"], allowRead: ["/home/u/.ssh/known_hosts", "/p/other"] }), {
      cwd: "/p",
      kind,
      env: { HTTP_PROXY: "http://127.0.0.1:1" },
    });
    const text = plan.args.join(" ");
    expect(text).toContain(
      "--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh --ro-bind /dev/null /p/.env --ro-bind /home/u/.ssh/known_hosts /home/u/.ssh/known_hosts --setenv TMPDIR /t --setenv HTTP_PROXY http://127.0.0.1:1",
    );
    expect(text).not.toContain("/nothing");
    expect(text).not.toContain("/p/other");
  });
});

test("hidden socket folders come first, as empty tmpfs; the proxy's socket and the bridge in them are bound back; denyRead inside them is left out", () => {
  const kind = disk({ "/t": "dir", "/p/.git/config": "file", "/run/agent/proxy.sock": "file", "/run/x/secret": "file" });
  const network = { kind: "proxy" as const, socket: "/run/agent/proxy.sock", port: 3128, bridge: ["/run/bin/agent"] };
  const plan = bwrapPlan(policy({ hiddenDirs: ["/run", "/tmp/.X11-unix"], network, denyRead: ["/run/x/secret"] }), { cwd: "/p", kind });
  const text = plan.args.join(" ");
  expect(text).toContain(
    "--proc /proc --tmpfs /run --tmpfs /tmp/.X11-unix --bind /t /t --bind /p /p --ro-bind /run/agent /run/agent --ro-bind /run/bin /run/bin",
  );
  expect(text).not.toContain("/run/x/secret");
});

describe("coreHooksPath", () => {
  test("reads [core] hooksPath, the last one winning, quotes and comments removed; other sections ignored", () => {
    expect(coreHooksPath('[core]\n\tbare = false\n\thooksPath = .githooks\n[alias]\n\thooksPath = nope\n[core]\n  hookspath = "tools/hooks" # ours\n')).toBe(
      "tools/hooks",
    );
    expect(coreHooksPath('[remote "origin"]\n\thooksPath = x\n')).toBeUndefined();
  });
});

describe("selfBinds", () => {
  test("a nested repository's .git and every folder between it and the project, outermost first", () => {
    expect(selfBinds("/p", ["/p/vendor/lib/.git", "/p/.git"])).toEqual(["/p/vendor", "/p/.git", "/p/vendor/lib", "/p/vendor/lib/.git"]);
  });
});
