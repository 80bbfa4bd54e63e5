/**
 * Preloaded by `bun test` (bunfig.toml), so its hooks hold for every test file: after each test,
 * fixture peers are killed; after the run, the temporary folders made through `tempDir()` are
 * removed. A run leaves no process and no folder behind.
 */
import { afterAll, afterEach } from "bun:test";
import { killPeers } from "./peers.ts";
import { removeTempDirs } from "./run.ts";

afterEach(killPeers);
afterAll(removeTempDirs);
