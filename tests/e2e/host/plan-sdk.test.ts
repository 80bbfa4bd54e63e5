/**
 * Plan mode, questions and the task list in host mode, driven by the official Agent SDK's `query()`
 * against the scripted model: `permissionMode: "plan"` applies plan mode's policy; ExitPlanMode
 * reaches the host's `canUseTool`, and its allow ends plan mode. Slow (real processes): SKIP_SLOW=1
 * skips them locally, never in CI.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { query, type Options } from "@anthropic-ai/claude-agent-sdk";
import { type ModelServer, type RecordedRequest, reply, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { tempDir } from "../../support/run.ts";
import { collect, sdkOptions } from "../../support/agent-sdk.ts";

const SKIP = process.env.SKIP_SLOW === "1" && !process.env.CI;

let server: ModelServer | undefined;
afterEach(() => server?.stop());

const TEST_TIMEOUT_MS = 60_000;

function options(cwd: string, extra: Partial<Options> = {}, config = tempDir("agent-config-")): Options {
  return sdkOptions(server!.url, cwd, extra, config);
}

function planFileOf(req: RecordedRequest): string {
  const match = /Write the plan to (\S+\.md),/.exec(JSON.stringify(req.body.messages));
  if (!match) throw new Error("no plan file in the request");
  return match[1]!;
}

const resultOfCall = (req: RecordedRequest) => req.body.messages.at(-1).content[0];

describe.skipIf(SKIP)("plan mode through the Agent SDK", () => {
  test(
    "permissionMode plan: a write is refused; ExitPlanMode goes to canUseTool with the call; once allowed, plan mode is off and Write runs",
    async () => {
      const dir = tempDir();
      server = startModelServer([
        reply(toolUse("Write", { file_path: "early.txt", content: "x" })),
        (req) => reply(toolUse("Write", { file_path: planFileOf(req), content: "# Plan\n1. write a.txt\n" })),
        reply(toolUse("ExitPlanMode", {})),
        reply(toolUse("Write", { file_path: "a.txt", content: "A" })),
        reply(text("done")),
      ]);
      const asked: string[] = [];
      const canUseTool: Options["canUseTool"] = async (name, input) => {
        asked.push(name);
        return { behavior: "allow", updatedInput: input };
      };
      const messages = await collect(query({ prompt: "plan then do", options: options(dir, { canUseTool, permissionMode: "plan" }) }));
      const init = messages.find((m) => m.type === "system" && m.subtype === "init") as any;
      expect(init.permissionMode).toBe("plan");
      expect(init.tools).toContain("ExitPlanMode");
      expect(JSON.stringify(resultOfCall(server.requests[1]!).content)).toContain("Plan mode is on");
      expect(existsSync(join(dir, "early.txt"))).toBe(false);
      // Only ExitPlanMode (and, after it, the default mode's Write) reach the host: plan mode decided the rest itself.
      expect(asked).toEqual(["ExitPlanMode", "Write"]);
      expect(JSON.stringify(resultOfCall(server.requests[3]!).content)).toContain("approved the plan");
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "canUseTool's deny of ExitPlanMode keeps plan mode on, and the model reads the host's message",
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "r.txt"), "r");
      server = startModelServer([reply(toolUse("ExitPlanMode", {})), reply(toolUse("Write", { file_path: "a.txt", content: "A" })), reply(text("ok"))]);
      const canUseTool: Options["canUseTool"] = async () => ({ behavior: "deny", message: "add a rollback step" });
      await collect(query({ prompt: "plan", options: options(dir, { canUseTool, permissionMode: "plan" }) }));
      expect(resultOfCall(server.requests[1]!)).toMatchObject({ is_error: true, content: "add a rollback step" });
      expect(JSON.stringify(resultOfCall(server.requests[2]!).content)).toContain("Plan mode is on");
      expect(existsSync(join(dir, "a.txt"))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "a settings defaultMode plan puts host mode in plan mode (never -p)",
    async () => {
      const dir = tempDir();
      const config = tempDir("agent-config-");
      writeFileSync(join(config, "settings.json"), JSON.stringify({ permissions: { defaultMode: "plan" } }));
      server = startModelServer([reply(toolUse("Write", { file_path: "a.txt", content: "A" })), reply(text("ok"))]);
      const messages = await collect(query({ prompt: "go", options: options(dir, {}, config) }));
      const init = messages.find((m) => m.type === "system" && m.subtype === "init") as any;
      expect(init.permissionMode).toBe("plan");
      expect(JSON.stringify(resultOfCall(server.requests[1]!).content)).toContain("Plan mode is on");
      expect(existsSync(join(dir, "a.txt"))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "AskUserQuestion goes to canUseTool with the questions; the answers the host fills in reach the model",
    async () => {
      const questions = [
        {
          question: "Which library?",
          header: "Library",
          options: [
            { label: "alpha", description: "a" },
            { label: "beta", description: "b" },
          ],
          multiSelect: false,
        },
      ];
      server = startModelServer([reply(toolUse("AskUserQuestion", { questions })), reply(text("ok"))]);
      let seen: Record<string, unknown> | undefined;
      const canUseTool: Options["canUseTool"] = async (name, input) => {
        if (name !== "AskUserQuestion") return { behavior: "deny", message: "no" };
        seen = input;
        return { behavior: "allow", updatedInput: { ...input, answers: { "Which library?": "beta" } } };
      };
      const messages = await collect(query({ prompt: "ask", options: options(tempDir(), { canUseTool }) }));
      const init = messages.find((m) => m.type === "system" && m.subtype === "init") as any;
      expect(init.tools).toContain("AskUserQuestion");
      expect(seen?.questions).toEqual(questions);
      expect(resultOfCall(server.requests[1]!).content).toBe('The user answered your questions: "Which library?"="beta". Go on with these answers in mind.');
    },
    TEST_TIMEOUT_MS,
  );

  test(
    "ExitPlanMode allowed with updatedPermissions setMode acceptEdits: the next write runs without asking the host",
    async () => {
      const dir = tempDir();
      server = startModelServer([
        (req) => reply(toolUse("Write", { file_path: planFileOf(req), content: "# Plan\n" })),
        reply(toolUse("ExitPlanMode", {})),
        reply(toolUse("Write", { file_path: "a.txt", content: "A" })),
        reply(text("done")),
      ]);
      const asked: string[] = [];
      const canUseTool: Options["canUseTool"] = async (name, input) => {
        asked.push(name);
        return { behavior: "allow", updatedInput: input, updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }] };
      };
      await collect(query({ prompt: "plan then do", options: options(dir, { canUseTool, permissionMode: "plan" }) }));
      expect(asked).toEqual(["ExitPlanMode"]);
      expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("A");
    },
    TEST_TIMEOUT_MS,
  );
});
