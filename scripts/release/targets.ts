/**
 * The platforms a release ships, each a `bun build --compile --target` and the npm package of
 * Bun's runtime for it (`@oven/bun-<os>-<arch>`, pinned by package-lock.json). Windows is left
 * out until the agent can shut a process tree down there; musl builds need a musl libstdc++ that
 * Debian does not ship, so they could not be run here and are left out too.
 */

export interface Target {
  /** The release file is `agent-<name>`; `<os>-<arch>` as install.sh derives it from `uname`. */
  name: string;
  os: "linux" | "darwin";
  arch: "x64" | "arm64";
  /** `bun build --target` value. */
  bunTarget: string;
  /** npm package holding `bin/bun` for that target. */
  npmPackage: string;
}

const target = (name: string, os: Target["os"], arch: Target["arch"], pkg: string): Target => ({
  name,
  os,
  arch,
  bunTarget: `bun-${name}`,
  npmPackage: `@oven/bun-${pkg}`,
});

/** Every target of a release, in the order SHA256SUMS and the summary list them. */
export const TARGETS: readonly Target[] = [
  target("linux-x64", "linux", "x64", "linux-x64"),
  target("linux-arm64", "linux", "arm64", "linux-aarch64"),
  target("darwin-x64", "darwin", "x64", "darwin-x64"),
  target("darwin-arm64", "darwin", "arm64", "darwin-aarch64"),
  // For x86-64 CPUs without AVX2 (older servers, some virtual machines); install.sh never picks it.
  target("linux-x64-baseline", "linux", "x64", "linux-x64-baseline"),
];

/** The release file name of a target, e.g. "agent-linux-arm64". */
export const binaryName = (t: Target): string => `agent-${t.name}`;
