/**
 * Preloaded by `bun test` (bunfig.toml), so its hooks hold for every test file: after each test,
 * fixture peers are killed; after the run, the temporary folders made through `tempDir()` are
 * removed. A run leaves no process and no folder behind.
 *
 * HOME is a fresh folder for the whole run and CLAUDE_CONFIG_DIR is unset, so neither the tests
 * nor any program they start can read or write the user's real `~/.claude.json` or `~/.claude/`.
 */
import { afterAll, afterEach } from "bun:test";
import { killPeers } from "./peers.ts";
import { removeTempDirs, tempDir } from "./run.ts";

process.env.HOME = tempDir("agent-test-home-");
delete process.env.CLAUDE_CONFIG_DIR;

afterEach(killPeers);
afterAll(removeTempDirs);
