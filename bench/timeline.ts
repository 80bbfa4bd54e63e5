/**
 * Where the time of one agent run goes: runs the compiled agent once with `--debug` against the
 * scripted model and N fixture servers, and prints every stderr/stdout line and the model
 * request with its time since launch (ms, the bench's clock). Optionally writes a CPU profile
 * of the agent (bun's --cpu-prof, passed to a compiled executable through BUN_OPTIONS).
 *
 *   bun bench/timeline.ts [--exe bench/.tmp/agent] [--servers 4] [--init-delay 100] [--cpu-prof DIR]
 *
 * A diagnostic for the person reading RESULTS.md, not a figure: nothing is compared or judged.
 */
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { fixtureServer, writeMcpConfig } from "../tests/support/run.ts";
import { agentWorkspace, timedModel } from "./figure.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    exe: { type: "string", default: join(import.meta.dir, ".tmp", "agent") },
    servers: { type: "string", default: "1" },
    "init-delay": { type: "string", default: "100" },
    "cpu-prof": { type: "string" },
  },
  strict: true,
});
const servers = Number(values.servers);
if (!Number.isInteger(servers) || servers < 0) {
  process.stderr.write(`timeline: --servers expects a whole number, got "${values.servers}"\n`);
  process.exit(2);
}
const exe = resolve(values.exe!);
if (!(await Bun.file(exe).exists())) {
  process.stderr.write(`timeline: ${exe} does not exist (run \`bun run bench\` once to build bench/.tmp/agent)\n`);
  process.exit(2);
}

/** Set just before the spawn: every time printed is since launch. */
let origin = 0;
const stamp = (what: string, at = performance.now()) => process.stdout.write(`${(at - origin).toFixed(1).padStart(8)} ms  ${what}\n`);
const model = timedModel("done", (at) => stamp("MODEL request received", at));
const ws = agentWorkspace(model.url);
const flags = Number(values["init-delay"]) > 0 ? ["--init-delay", String(values["init-delay"])] : [];
writeMcpConfig(ws.cwd, Object.fromEntries(Array.from({ length: servers }, (_, i) => [`s${i + 1}`, fixtureServer(...flags)])));
const env: Record<string, string | undefined> = { ...ws.env };
if (values["cpu-prof"]) env.BUN_OPTIONS = `--cpu-prof --cpu-prof-md --cpu-prof-dir=${resolve(values["cpu-prof"])}`;

origin = performance.now();
const proc = Bun.spawn([exe, "-p", "hi", "--debug"], {
  cwd: ws.cwd,
  env: Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>,
  stdin: "ignore",
  stdout: "pipe",
  stderr: "pipe",
});
stamp(`spawned ${exe} -p hi --debug with ${servers} server(s)`, origin);

async function lines(stream: ReadableStream<Uint8Array>, tag: string): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
      stamp(`${tag} ${buffered.slice(0, nl).slice(0, 160)}`);
      buffered = buffered.slice(nl + 1);
    }
  }
  if (buffered) stamp(`${tag} ${buffered.slice(0, 160)}`);
}

await Promise.all([lines(proc.stdout, "OUT"), lines(proc.stderr, "ERR"), proc.exited.then((code) => stamp(`EXIT code ${code}`))]);
model.stop();
ws.remove();
if (values["cpu-prof"]) process.stdout.write(`CPU profile (.cpuprofile and .md) in ${resolve(values["cpu-prof"])}\n`);
