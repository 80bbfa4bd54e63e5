/**
 * Figure: what `--json-schema` costs a `-p` run's start. `agent -p hi --json-schema <schema>`
 * against `agent -p hi`, both measured launch → exit in the same series (interleaved), each with
 * one model call: the scripted model answers a request that offers StructuredOutput with a
 * matching call, and any other with text. The difference is loading ajv, compiling the schema
 * and checking one value.
 */
import { reply, startModelServer, text, toolUse, type Step } from "../tests/support/model-server.ts";
import { agentWorkspace, failureLine, type BenchContext, type FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, ms, msDelta, naRow, ratio, series } from "./measure.ts";
import { runProcess } from "./process-run.ts";

const RUNS = 15;
const FIGURE = "`-p --json-schema` start-up over `-p` (launch → exit, one model call each)";
const SCHEMA = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } }, age: { type: "integer", minimum: 0 } },
  required: ["name"],
});

export async function structuredFigure(ctx: BenchContext): Promise<FigureResult> {
  const { product } = ctx.builds;
  if (!product.path) return { rows: [naRow(FIGURE, "report", product.error ?? "the agent did not build")], notes: [] };
  const answer: Step = (req) =>
    req.body.tools?.some((t: { name: string }) => t.name === "StructuredOutput")
      ? reply(toolUse("StructuredOutput", { name: "x", tags: ["a"] }))
      : reply(text("hi"));
  const model = startModelServer(new Array(4 * RUNS + 8).fill(answer));
  const ws = agentWorkspace(model.url);
  try {
    const failures: Record<string, string> = {};
    const run = (name: string, argv: string[]) =>
      guarded(name, failures, async () => {
        const r = await runProcess(argv, { cwd: ws.cwd, env: ws.env });
        if (r.code !== 0) throw new Error(failureLine(argv.join(" "), r));
        model.requests.length = 0;
        return r.exitedAt - r.spawnedAt;
      });
    ctx.log(`json-schema: ${RUNS} runs each of -p and -p --json-schema, interleaved`);
    const samples = await series(RUNS, {
      plain: run("plain", [product.path, "-p", "hi"]),
      schema: run("schema", [product.path, "-p", "hi", "--json-schema", SCHEMA]),
    });
    const plain = medianOrFailure(samples.plain, failures.plain);
    const schema = medianOrFailure(samples.schema, failures.schema);
    if ("failure" in plain) return { rows: [naRow(FIGURE, "report", plain.failure)], notes: [] };
    if ("failure" in schema) return { rows: [naRow(FIGURE, "report", schema.failure)], notes: [] };
    return {
      rows: [
        {
          figure: FIGURE,
          value: `${ms(schema.value)} (${msDelta(schema.value - plain.value)})`,
          baseline: `${ms(plain.value)} (\`-p hi\`)`,
          ratio: ratio(schema.value, plain.value),
          target: "report",
          result: "reported",
        },
      ],
      notes: [],
    };
  } finally {
    ws.remove();
    model.stop();
  }
}
