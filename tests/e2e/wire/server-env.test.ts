/**
 * A server's environment and working directory through the whole agent: `.mcp.json` `env` is added
 * to the inherited environment, `${VAR}` / `${VAR:-default}` expand in command, args and env
 * (Claude Code `.mcp.json` conventions), and the server runs in the agent's working directory.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse } from "../../support/model-server.ts";
import { BUN, FIXTURE_SERVER, fixtureServer } from "../../support/run.ts";
import { lines, project, stopProjects, toolResults } from "../../support/mcp.ts";

afterEach(stopProjects);

/** One model turn calling the fixture's `env` tool for each name, then "done". */
const askEnv = (...names: string[]) => [reply(...names.map((name) => toolUse("mcp__fx__env", { name }))), reply(text("done"))];
const values = (p: ReturnType<typeof project>) => toolResults(p.model.requests[1]!).map((b) => (b.is_error ? `error: ${b.content}` : b.content));

describe("env", () => {
  test("a configured variable reaches the server, and PATH (the inherited environment) is kept", async () => {
    const p = project({ fx: { ...fixtureServer(), env: { GREETING: "hello from .mcp.json" } } }, askEnv("GREETING", "PATH", "AGENT_TEST_MARKER"));
    const r = await p.run("env", { env: { PATH: `/opt/e2e-marker-bin:${process.env.PATH}` } });
    expect(r.code).toBe(0);
    expect(values(p)).toEqual(["hello from .mcp.json", `/opt/e2e-marker-bin:${process.env.PATH}`, p.marker]);
  });

  test("${VAR} and ${VAR:-default} expand in command, args and env", async () => {
    const p = project(
      {
        fx: {
          command: "${E2E_BUN}",
          args: ["${E2E_FIXTURE}", "--pid-file", "${E2E_PID_FILE:-pids-by-default.txt}"],
          env: { FROM_VAR: "${E2E_VALUE}", FROM_DEFAULT: "${E2E_UNSET:-the default}", MIXED: "a-${E2E_VALUE}-b" },
        },
      },
      askEnv("FROM_VAR", "FROM_DEFAULT", "MIXED"),
    );
    const r = await p.run("env", { env: { E2E_BUN: BUN, E2E_FIXTURE: FIXTURE_SERVER, E2E_VALUE: "expanded", E2E_UNSET: undefined, E2E_PID_FILE: undefined } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(values(p)).toEqual(["expanded", "the default", "a-expanded-b"]);
    // The default went into args (a path relative to the server's working directory, the project).
    expect(existsSync(join(p.dir, "pids-by-default.txt"))).toBe(true);
  });

  test("an empty value is kept: the default applies only to an unset variable", async () => {
    const p = project({ fx: { ...fixtureServer(), env: { KEPT: "[${E2E_EMPTY:-default}]" } } }, askEnv("KEPT"));
    const r = await p.run("env", { env: { E2E_EMPTY: "" } });
    expect(r.code).toBe(0);
    expect(values(p)).toEqual(["[]"]);
  });

  test("an unset variable without default: one warning naming server and variable, no value echoed; the server still starts", async () => {
    const secret = "s3cr3t-value-never-printed";
    const p = project({ fx: { ...fixtureServer(), env: { TOKEN: "${E2E_SECRET}", MISSING: "${E2E_NOT_SET}" } } }, askEnv("TOKEN", "MISSING"));
    const r = await p.run("env", { env: { E2E_SECRET: secret, E2E_NOT_SET: undefined } });
    expect(r.code).toBe(0);
    expect(lines(r.stderr)).toEqual(['.mcp.json: server "fx": environment variable E2E_NOT_SET not set (left as written)']);
    expect(r.stderr + r.stdout).not.toContain(secret);
    // Left as written, as Claude Code does.
    expect(values(p)).toEqual([secret, "${E2E_NOT_SET}"]);
  });
});

describe("working directory", () => {
  test("the server runs in the agent's working directory", async () => {
    const p = project({ fx: fixtureServer() }, [reply(toolUse("mcp__fx__cwd", {})), reply(text("done"))]);
    expect((await p.run("cwd")).code).toBe(0);
    expect(values(p)).toEqual([p.dir]);
  });
});
