/**
 * scripts/release/runtimes.ts and targets.ts: every target's Bun runtime is pinned by
 * package-lock.json at the version of the bun that builds (the bytecode only loads in that
 * runtime), with a sha512 integrity the fetched tarball must match.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { version as bunPackageVersion } from "../../../node_modules/bun/package.json";
import { lockEntry, matchesIntegrity } from "../../../scripts/release/runtimes.ts";
import { binaryName, TARGETS } from "../../../scripts/release/targets.ts";

describe("runtime pins", () => {
  test("the lock pins every target's runtime at the running bun's version, with a sha512", () => {
    expect(bunPackageVersion).toBe(Bun.version);
    for (const t of TARGETS)
      expect({ pkg: t.npmPackage, ...lockEntry(t.npmPackage) }).toMatchObject({ version: Bun.version, integrity: expect.stringMatching(/^sha512-/) });
  });

  test("a package the lock does not pin is an error naming it", () => {
    expect(() => lockEntry("@oven/bun-plan9-x64", { packages: {} })).toThrow("package-lock.json pins no version and sha512 integrity for @oven/bun-plan9-x64");
    expect(() => lockEntry("x", { packages: { "node_modules/x": { version: "1.0.0", integrity: "sha1-abc" } } })).toThrow("pins no version and sha512");
  });

  test("integrity is the sha512 of the exact bytes", () => {
    const bytes = new TextEncoder().encode("tarball");
    const sri = `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
    expect(matchesIntegrity(bytes, sri)).toBe(true);
    expect(matchesIntegrity(new TextEncoder().encode("tarbalL"), sri)).toBe(false);
  });

  test("targets have unique file names of the form install.sh derives from uname", () => {
    const names = TARGETS.map(binaryName);
    expect(new Set(names).size).toBe(names.length);
    for (const t of TARGETS) expect(binaryName(t)).toStartWith(`agent-${t.os}-${t.arch}`);
    expect(names).toEqual(expect.arrayContaining(["agent-linux-x64", "agent-linux-arm64", "agent-darwin-x64", "agent-darwin-arm64"]));
  });
});
