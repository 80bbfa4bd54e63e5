/**
 * Host mode through the real Agent SDK (tests/e2e/host/): a query's options against the scripted
 * model, and every message of a query collected. One copy for every host test.
 */
import type { Options, SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { baseEnv, PROGRAM, tempDir } from "./run.ts";

/** Options for a query against the scripted model at `modelUrl`, in `cwd`, with a config folder of its own. */
export function sdkOptions(modelUrl: string, cwd: string, extra: Partial<Options> = {}, config = tempDir("agent-config-")): Options {
  const env = { ...baseEnv(modelUrl), CLAUDE_CONFIG_DIR: config } as Record<string, string>;
  return { pathToClaudeCodeExecutable: PROGRAM, cwd, env, ...extra };
}

/** Every message a query yields, in order, once it ends. */
export async function collect(q: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of q) out.push(m);
  return out;
}
