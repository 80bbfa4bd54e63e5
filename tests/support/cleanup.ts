/**
 * Preloaded by `bun test` (bunfig.toml), so its hooks hold for every test file: after each test,
 * fixture peers are killed; after the run, the temporary folders made through `tempDir()` are
 * removed. A run leaves no process and no folder behind, and never touches the real ~/.claude
 * or ~/.claude.json (HOME and CLAUDE_CONFIG_DIR are fresh folders for the whole run).
 */
import { afterAll, afterEach } from "bun:test";
import { killPeers } from "./peers.ts";
import { removeTempDirs, tempDir, testConfigDir } from "./run.ts";

// A test that spawns with this process's environment must not reach the real ~/.claude or ~/.claude.json either.
process.env.CLAUDE_CONFIG_DIR = testConfigDir();
process.env.HOME = tempDir("agent-test-home-");

afterEach(killPeers);
afterAll(removeTempDirs);
