/** A model alias from --model or ANTHROPIC_MODEL is resolved as the settings' `model` is: the API never sees `opus`. */
import { expect, test } from "bun:test";
import { modelForAlias } from "../../../lib/agent/model/model-table.ts";
import { reply, startModelServer, text } from "../../support/model-server.ts";
import { runAgent, tempDir } from "../../support/run.ts";

async function modelSent(args: string[], env: Record<string, string> = {}): Promise<string> {
  const model = startModelServer([reply(text("ok"))]);
  try {
    const r = await runAgent(["-p", "hi", ...args], { cwd: tempDir(), model: model.url, env });
    expect(r.code).toBe(0);
    return model.requests[0]!.body.model;
  } finally {
    model.stop();
  }
}

test("--model opus, ANTHROPIC_MODEL=sonnet: the newest id of the family; an id stays as written", async () => {
  const opus = modelForAlias("opus")!;
  expect(opus).toMatch(/^claude-opus-/);
  expect(await modelSent(["--model", "opus"])).toBe(opus);
  expect(await modelSent([], { ANTHROPIC_MODEL: "sonnet" })).toBe(modelForAlias("sonnet")!);
  expect(await modelSent(["--model", "claude-made-up-1"])).toBe("claude-made-up-1");
});
