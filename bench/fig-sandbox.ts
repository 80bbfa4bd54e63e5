/**
 * Figure: the OS sandbox's cost. A sandboxed `bash -c true` under the run's policy (the plan, the
 * masks of missing protected paths made and removed, the writable project and temp folder) against
 * a bare bwrap with the same namespaces running the same, measured in the same run, without and with
 * the network bridge (our built executable as the bridge on both sides); the Bash tool's whole call
 * sandboxed against unsandboxed; and a sandboxed stdio server's handshake against the same server
 * unsandboxed.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BUN, FIXTURE_SERVER, tempDir } from "../tests/support/run.ts";
import type { BenchContext, FigureResult } from "./figure.ts";
import { guarded, medianOrFailure, ms, naRow, ratio, type Row, series, verdict } from "./measure.ts";

const RUNS = 30;
const HANDSHAKES = 10;
const TURNAROUNDS = 5;
const TARGET = "≤ 1.5× bare bwrap";

export async function sandboxFigure(ctx: BenchContext): Promise<FigureResult> {
  const [{ sandboxAvailability }, { BASE_ARGS }, { Sandbox, sandboxTempDir }, { withBridge }, { startFilteringProxy }, { runCommand }] = await Promise.all([
    import("../lib/sandbox/availability.ts"),
    import("../lib/sandbox/bwrap.ts"),
    import("../lib/sandbox/sandbox.ts"),
    import("../lib/sandbox/network.ts"),
    import("../lib/sandbox/proxy.ts"),
    import("../lib/tools/bash.ts"),
  ]);
  const available = sandboxAvailability();
  const names = [
    "sandbox: `bash -c true` under the run's policy, no network",
    "sandbox: `bash -c true` under the run's policy, with the network bridge",
    "sandbox: the Bash tool's call of `true`, sandboxed against unsandboxed",
    "sandbox: stdio server handshake",
  ];
  if (!available.ok) return { rows: names.map((n) => naRow(n, TARGET, available.reason)), notes: [] };
  const product = ctx.builds.product.path;
  const project = tempDir("agent-bench-sandbox-");
  mkdirSync(join(project, ".git", "hooks"), { recursive: true });
  const temp = sandboxTempDir();
  const sock = join(tempDir("agent-bench-net-"), "proxy.sock");
  const proxy = await startFilteringProxy({ socket: sock, decide: async () => false });
  const policy = { projectDir: project, tempDir: temp.path, allowWrite: [], denyWrite: [], denyRead: [], allowRead: [], network: { kind: "none" as const } };
  const plain = new Sandbox(policy, available.bwrap);
  const bridge = product ? [product] : undefined;
  const networked = bridge && new Sandbox({ ...policy, network: { kind: "proxy", socket: sock, port: 3128, bridge } }, available.bwrap);
  const bare = [available.bwrap, ...BASE_ARGS, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--"];
  const spawnWait = async (argv: string[]) => {
    const t = performance.now();
    const proc = Bun.spawn(argv, { cwd: project, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    if ((await proc.exited) !== 0) throw new Error(`${argv[0]} exited with ${proc.exitCode}`);
    return performance.now() - t;
  };
  const wrapped = (sandbox: InstanceType<typeof Sandbox>) => async () => {
    const t = performance.now();
    const w = sandbox.wrap(["bash", "-c", "true"], { cwd: project });
    const proc = Bun.spawn(w.argv, { cwd: project, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    const code = await proc.exited;
    w.release();
    if (code !== 0) throw new Error(`sandboxed true exited with ${code}`);
    return performance.now() - t;
  };
  const viaBash = (sandbox: InstanceType<typeof Sandbox> | undefined) => async () => {
    const t = performance.now();
    const r = await runCommand("true", { cwd: project, timeoutMs: 30_000, signal: new AbortController().signal, trackCwd: true, sandbox });
    if (r.exitCode !== 0) throw new Error(`true: ${r.output || r.exitCode}`);
    return performance.now() - t;
  };
  const failures: Record<string, string> = {};
  ctx.log(`sandbox: ${RUNS} sandboxed and bare runs of true, without and with the bridge; ${HANDSHAKES} handshakes each way`);
  const samples = await series(RUNS, {
    sandboxed: guarded("sandboxed", failures, wrapped(plain)),
    bare: guarded("bare", failures, () => spawnWait([...bare, "bash", "-c", "true"])),
    sandboxedNet: guarded("sandboxedNet", failures, networked ? wrapped(networked) : async () => Promise.reject(new Error("the product is not built"))),
    bareNet: guarded("bareNet", failures, bridge ? () => spawnWait([...bare, ...withBridge(["bash", "-c", "true"], bridge, 3128, sock)]) : async () => NaN),
    toolSandboxed: guarded("toolSandboxed", failures, viaBash(plain)),
    tool: guarded("tool", failures, viaBash(undefined)),
  });
  const rows: Row[] = [
    compare(names[0]!, medianOrFailure(samples.sandboxed, failures.sandboxed), medianOrFailure(samples.bare, failures.bare)),
    compare(names[1]!, medianOrFailure(samples.sandboxedNet, failures.sandboxedNet), medianOrFailure(samples.bareNet, failures.bareNet)),
    compare(names[2]!, medianOrFailure(samples.toolSandboxed, failures.toolSandboxed), medianOrFailure(samples.tool, failures.tool), "reported"),
  ];
  rows.push(await handshakeRow(names[3]!, project, plain));
  rows.push(...(await turnaroundRows(product)));
  await proxy.close();
  temp.remove();
  return {
    rows,
    notes: [
      "Sandbox: the sandboxed side is `Sandbox.wrap` (the plan, the masks of the missing protected paths made and removed) and its bwrap, for a project holding `.git/hooks`; the bare side is `bwrap` with the same namespaces and `--ro-bind / /`, both running `bash -c true`. With the bridge, both sides start our executable as the in-namespace bridge and wait for it to listen. The Bash tool's row adds its own shell wrapper, directory file and output pipe on both sides. Against Claude Code: a `-p` run's Bash `true`, from the model's tool_use reply to the request carrying its result, in each program with the project's sandbox on (and `autoAllowBashIfSandboxed`) and off (an allow rule).",
    ],
  };
}

function compare(figure: string, value: { value: number } | { failure: string }, base: { value: number } | { failure: string }, target = TARGET): Row {
  if ("failure" in value) return naRow(figure, target, value.failure);
  if ("failure" in base) return naRow(figure, target, base.failure);
  const result = target === TARGET ? verdict(value.value <= 1.5 * base.value) : `+${ms(value.value - base.value)}`;
  return { figure: `${figure} (median of ${RUNS})`, value: ms(value.value), baseline: ms(base.value), ratio: ratio(value.value, base.value), target, result };
}

/** A fixture server's spawn → connected, sandboxed against unsandboxed, interleaved. */
async function handshakeRow(figure: string, project: string, sandbox: { wrap: import("../lib/sandbox/sandbox.ts").Sandbox["wrap"] }): Promise<Row> {
  const { McpRegistry } = await import("../lib/mcp/registry/registry.ts");
  const config = { name: "fx", type: "stdio" as const, command: BUN, args: [FIXTURE_SERVER], env: {} };
  const once = (sandboxed: boolean) => async () => {
    const t = performance.now();
    const registry = await McpRegistry.start([config as never], { cwd: project, log: () => {}, sandboxFor: sandboxed ? () => sandbox : undefined });
    const took = performance.now() - t;
    const status = registry.snapshot()[0]?.status;
    await registry.shutdown();
    if (status !== "connected") throw new Error(`the server ended ${status}`);
    return took;
  };
  const failures: Record<string, string> = {};
  const s = await series(HANDSHAKES, { sandboxed: guarded("sandboxed", failures, once(true)), bare: guarded("bare", failures, once(false)) });
  const a = medianOrFailure(s.sandboxed, failures.sandboxed);
  const b = medianOrFailure(s.bare, failures.bare);
  if ("failure" in a) return naRow(figure, "reported", a.failure);
  if ("failure" in b) return naRow(figure, "reported", b.failure);
  return {
    figure: `${figure}, sandboxed against unsandboxed (median of ${HANDSHAKES})`,
    value: ms(a.value),
    baseline: ms(b.value),
    ratio: ratio(a.value, b.value),
    target: "reported",
    result: `+${ms(a.value - b.value)}`,
  };
}

/** A -p Bash call's turn-around, sandboxed and not, in our executable and in Claude Code's where it runs here. */
async function turnaroundRows(product: string | undefined): Promise<Row[]> {
  const { bashTurnaround, haveClaude } = await import("./sandbox-turnaround.ts");
  const figure = (who: string) => `sandbox: a -p Bash call's turn-around (\`true\`), ${who}, sandboxed against not (median of ${TURNAROUNDS})`;
  if (!product) return [naRow(figure("ours"), "reported", "the product is not built")];
  const failures: Record<string, string> = {};
  const claude = haveClaude();
  const s = await series(TURNAROUNDS, {
    ours: guarded("ours", failures, () => bashTurnaround(product, false, true)),
    oursBare: guarded("oursBare", failures, () => bashTurnaround(product, false, false)),
    claude: guarded(
      "claude",
      failures,
      claude ? () => bashTurnaround(product, true, true) : async () => Promise.reject(new Error("Claude Code's executable or socat is missing")),
    ),
    claudeBare: guarded("claudeBare", failures, claude ? () => bashTurnaround(product, true, false) : async () => NaN),
  });
  const row = (who: string, a: string, b: string): Row => {
    const value = medianOrFailure(s[a as keyof typeof s], failures[a]);
    const base = medianOrFailure(s[b as keyof typeof s], failures[b]);
    if ("failure" in value) return naRow(figure(who), "reported", value.failure);
    if ("failure" in base) return naRow(figure(who), "reported", base.failure);
    return {
      figure: figure(who),
      value: ms(value.value),
      baseline: ms(base.value),
      ratio: ratio(value.value, base.value),
      target: "reported",
      result: `+${ms(value.value - base.value)}`,
    };
  };
  return [row("ours", "ours", "oursBare"), row("Claude Code", "claude", "claudeBare")];
}
