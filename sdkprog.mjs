import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
const srv = createSdkMcpServer({
  name: "inproc",
  version: "1.0.0",
  tools: [tool("add", "Add", { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }))],
});
const q = query({
  prompt: "add 2 and 3",
  options: {
    pathToClaudeCodeExecutable: "/work/wt/sessions/your_program.sh",
    mcpServers: { inproc: srv },
    cwd: "/tmp/spy",
    env: { ...process.env },
    stderr: (d) => process.stderr.write("STDERR " + d),
  },
});
try {
  for await (const m of q) console.log(JSON.stringify(m).slice(0, 400));
} catch (e) {
  console.log("err", e.message);
}
