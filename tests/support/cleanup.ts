/**
 * Preloaded by `bun test` (bunfig.toml): after the whole run, remove the temporary folders the
 * tests made through `tempDir()`, so a run leaves nothing behind in the temp directory.
 */
import { afterAll } from "bun:test";
import { removeTempDirs } from "./run.ts";

afterAll(removeTempDirs);
