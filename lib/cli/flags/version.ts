/**
 * What `--version` prints: `<version> (agent, <commit>, <build date>)` for a built executable,
 * `<version> (agent, dev)` for `bun run index.ts`. The version is package.json's; the commit and
 * date are stamped by scripts/build.ts with `bun build --define` (nothing here spawns git).
 */
import { version } from "../../../package.json";

// Replaced by string literals at build time (scripts/build.ts); absent under `bun run`, where
// `typeof` of an undeclared global is "undefined" rather than a ReferenceError.
declare const AGENT_BUILD_COMMIT: string | undefined;
declare const AGENT_BUILD_DATE: string | undefined;

/** package.json's version, e.g. "0.2.0". */
export const VERSION: string = version;

/**
 * The `--version` line, without its newline: e.g. "0.2.0 (agent, 1a2b3c4-dirty, 2026-12-01)"
 * when built, "0.2.0 (agent, dev)" when run from source.
 */
export function versionLine(): string {
  if (typeof AGENT_BUILD_COMMIT !== "string" || typeof AGENT_BUILD_DATE !== "string") return `${VERSION} (agent, dev)`;
  return `${VERSION} (agent, ${AGENT_BUILD_COMMIT}, ${AGENT_BUILD_DATE})`;
}
