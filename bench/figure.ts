/**
 * What every figure module shares: its signature, the context it gets, the scripted model with
 * arrival timestamps, and the environment an agent run gets.
 */
import { rmSync } from "node:fs";
import { reply, startModelServer, text, type ModelServer } from "../tests/support/model-server.ts";
import { baseEnv, tempDir } from "../tests/support/run.ts";
import type { Builds } from "./build.ts";
import type { Row } from "./measure.ts";

export interface BenchContext {
  builds: Builds;
  /** Progress for the person watching (stderr); not part of the results. */
  log: (line: string) => void;
}

export interface FigureResult {
  rows: Row[];
  /** Markdown paragraphs for RESULTS.md under the table (details, secondary numbers). */
  notes: string[];
}

export type Figure = (ctx: BenchContext) => Promise<FigureResult>;

/** Enough scripted steps for any series; the array is consumed one step per request. */
const STEPS = 100_000;

export interface TimedModel {
  url: string;
  /** performance.now() (ms) when the latest request's body had been read. */
  lastArrival(): number | undefined;
  /** performance.now() (ms) when the latest reply was handed to the HTTP layer. */
  lastReply(): number | undefined;
  /** Forgets both timestamps, before the next run. */
  reset(): void;
  stop(): void;
}

/**
 * The scripted model server from tests/support, answering every request with `answer` (plain
 * text, stop_reason end_turn) and recording when requests arrive; `onArrival` is called with
 * each arrival time (ms, performance.now()).
 */
export function timedModel(answer = "done", onArrival?: (at: number) => void): TimedModel {
  let arrival: number | undefined;
  let replied: number | undefined;
  const step = () => {
    const now = performance.now();
    arrival ??= now;
    onArrival?.(now);
    replied = performance.now();
    return reply(text(answer));
  };
  const server: ModelServer = startModelServer(new Array(STEPS).fill(step));
  return {
    url: server.url,
    lastArrival: () => arrival,
    lastReply: () => replied,
    reset: () => {
      arrival = undefined;
      replied = undefined;
      // The recorded bodies are not needed; keep memory flat over long series.
      server.requests.length = 0;
    },
    stop: () => server.stop(),
  };
}

export interface Workspace {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Deletes the directories. */
  remove(): void;
}

/**
 * A fresh working directory and the environment for agent runs against `modelUrl`: the test
 * key, no inherited ANTHROPIC_/MCP_/CLAUDE variables, and HOME pointing at an empty directory so
 * the user's own CLAUDE.md or settings cannot change what is measured.
 */
export function agentWorkspace(modelUrl: string): Workspace {
  const cwd = tempDir("agent-bench-");
  const home = tempDir("agent-bench-home-");
  return {
    cwd,
    env: { ...baseEnv(modelUrl), HOME: home },
    remove: () => {
      for (const dir of [cwd, home]) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The first non-empty stderr line of a failed run, for an "n/a (…)" cell. */
export function failureLine(what: string, run: { code: number; stderr: string }): string {
  const line = run.stderr.split("\n").find((l) => l.trim()) ?? "no stderr";
  return `${what} exited with code ${run.code}: ${line.trim()}`;
}
