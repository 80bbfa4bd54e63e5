/**
 * The stdio fault suite: one fault at each protocol step (fixtures/servers/fault-server.ts),
 * through the built binary in `-p` beside a healthy server. For each, what the user gets: a clear
 * stderr line or tool result naming the server, an answer and exit 0 (a failed server never
 * changes the exit code), the timeout reported by the product itself, no process left behind, and
 * the other server unaffected. No assertion reads the clock: a loaded machine only makes it slower.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { BUN, fixtureServer, isAlive, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";
import { slots } from "../../support/wait.ts";

const FAULT_SERVER = join(ROOT, "fixtures/servers/fault-server.ts");
/** The faulting server's tool timeout, in ms: a short one, since a call timing out is the subject. */
const TIMEOUT_MS = 1500;
/**
 * Its start-up timeout, in ms. Where start-up is not the subject, long: the server starts however
 * slowly a loaded machine starts it. For the list faults, whose tools/list timing out is the
 * subject, shorter, yet long enough for the initialize answer (the timeout covers each start-up
 * request, and a loaded machine can take seconds to start a process).
 */
const STARTUP_MS = 60_000;
const LIST_TIMEOUT_MS = 5000;
/** Runs at once: each is the agent and two servers, and 17 at once on two cores starve each other. */
const FAULT_SLOTS = 4;

interface Expected {
  /** The stderr lines, whole. */
  stderr: (string | RegExp)[];
  /** What the model read for `boom`: [content, is_error]. */
  boom: [string | RegExp, boolean];
  /** A call that must succeed however loaded the machine: its MCP_TOOL_TIMEOUT, in ms. */
  toolTimeoutMs?: number;
  /** The start-up timeout is the subject: LIST_TIMEOUT_MS, not STARTUP_MS. */
  startupIsSubject?: boolean;
}

const failedStart = (line: string | RegExp): Expected => ({ stderr: [line], boom: ["No such tool: mcp__f__boom", true] });
const timedOut: Expected = {
  stderr: [],
  boom: [`MCP tool boom on server "f" timed out after ${TIMEOUT_MS} ms (MCP_TOOL_TIMEOUT); the call was cancelled`, true],
};

const FAULTS: Record<string, Expected> = {
  "before-init": failedStart(
    'MCP server "f" failed to start: exited with code 3 before the handshake (stderr: [fault-server] exiting before reading anything)',
  ),
  "init-half-line": failedStart('MCP server "f" failed to start: exited with code 4 before the handshake'),
  "after-init": failedStart(/^MCP server "f" failed the handshake: tools\/list .*closed its output \(stderr: \[fault-server\] exiting after initialized\)$/),
  "list-hang": { ...failedStart(`MCP server "f" failed the handshake: tools/list tools/list timed out after ${LIST_TIMEOUT_MS} ms`), startupIsSubject: true },
  "list-garbage": {
    ...failedStart(`MCP server "f" failed the handshake: tools/list tools/list timed out after ${LIST_TIMEOUT_MS} ms`),
    startupIsSubject: true,
  },
  "call-half-line": timedOut,
  "call-half-exit": {
    stderr: ['MCP server "f" exited with code 5; its next call restarts it (restart 1 of at most 3 in 5 minutes)'],
    boom: ['MCP server "f" exited during the call', true],
  },
  // Decoded with replacement characters: the answer arrives, its bad bytes shown as U+FFFD.
  "call-invalid-utf8": { stderr: [], boom: ["bad \uFFFD\uFFFD( bytes", false] },
  "call-50mb": { stderr: [], boom: [/^x{1000}/, false], toolTimeoutMs: 100_000 },
  "call-wrong-id": timedOut,
  "call-duplicate-id": { stderr: [], boom: ["first answer", false] },
  "call-after-cancel": timedOut,
  "call-flood": { stderr: [], boom: ["after the flood", false], toolTimeoutMs: 100_000 },
  "call-exit": {
    // One line per death, naming the restart a next call would make (none comes here).
    stderr: ['MCP server "f" exited with code 6 (stderr: [fault-server] exiting mid-call); its next call restarts it (restart 1 of at most 3 in 5 minutes)'],
    boom: ['MCP server "f" exited during the call', true],
  },
  "call-sigstop": timedOut,
  "ignore-sigterm": { stderr: [], boom: ["boom answered", false] },
  grandchild: { stderr: [], boom: ["boom answered", false] },
};

const slot = slots(FAULT_SLOTS);

describe("a stdio server faulting at each protocol step", () => {
  for (const [fault, expected] of Object.entries(FAULTS)) {
    test.concurrent(
      fault,
      () =>
        slot(async () => {
          const dir = tempDir();
          const pids = join(dir, "pids");
          // The faulting server's own timeouts (its entry's `timeout`, `toolTimeout`); the healthy one keeps the defaults.
          const timeout = expected.startupIsSubject ? LIST_TIMEOUT_MS : STARTUP_MS;
          const f = { command: BUN, args: [FAULT_SERVER, fault, pids], timeout, toolTimeout: expected.toolTimeoutMs ?? TIMEOUT_MS };
          writeMcpConfig(dir, { f, ok: fixtureServer() });
          const model = startModelServer([reply(toolUse("mcp__f__boom", {})), reply(toolUse("mcp__ok__echo", { text: "still here" })), reply(text("done"))]);
          try {
            // The kill is only for a hung run; the timeouts under test are the product's own, reported in its words below.
            const r = await runAgent(["-p", "go"], { cwd: dir, model: model.url, timeoutMs: 200_000 });
            expect([r.code, r.stdout]).toEqual([0, "done\n"]);
            const lines = r.stderr.split("\n").filter(Boolean);
            expect(lines).toHaveLength(expected.stderr.length);
            for (const [i, line] of expected.stderr.entries()) {
              if (typeof line === "string") expect(lines[i]).toBe(line);
              else expect(lines[i]).toMatch(line);
            }
            const [boom, echo] = model.requests.slice(1).map((q) => q.body.messages.at(-1).content[0]);
            const [content, isError] = expected.boom;
            if (typeof content === "string") expect(boom.content).toBe(content);
            else expect(boom.content).toMatch(content);
            expect(boom.is_error ?? false).toBe(isError);
            expect(echo).toMatchObject({ content: "still here" });
            expect(echo.is_error).toBeUndefined();
            // No orphan: the server, and any child it left in its group, are gone once the run is.
            const left = existsSync(pids) ? readFileSync(pids, "utf8").trim().split("\n").map(Number).filter(isAlive) : [];
            expect(left).toEqual([]);
          } finally {
            model.stop();
          }
        }),
      240_000,
    );
  }
});
