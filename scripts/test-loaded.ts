/**
 * `npm run test:loaded`: the whole test run (scripts/test.ts, same arguments) while busy processes of
 * our own keep every core full, to show that no test depends on the machine's speed. The hogs are
 * plain busy loops at normal priority, one per core (at least two), killed when the run ends.
 *
 *   bun scripts/test-loaded.ts [--hogs N] [scripts/test.ts arguments...]
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { ROOT } from "./build.ts";

const args = process.argv.slice(2);
let hogs = Math.max(2, availableParallelism());
const at = args.indexOf("--hogs");
if (at >= 0) {
  hogs = Number(args[at + 1]);
  args.splice(at, 2);
}
if (!Number.isInteger(hogs) || hogs < 0) {
  console.error("test:loaded: --hogs takes a whole number of busy processes");
  process.exit(2);
}

const busy = Array.from({ length: hogs }, () => Bun.spawn([process.execPath, "-e", "for (;;) {}"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }));
const stop = () => {
  for (const hog of busy) hog.kill("SIGKILL");
};
// An interrupted run must not leave the hogs spinning.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    stop();
    process.exit(130);
  });
}
console.log(`test:loaded: ${hogs} busy processes keep the cores full during the run`);
const started = performance.now();
const run = Bun.spawn([process.execPath, join(ROOT, "scripts/test.ts"), ...args], { cwd: ROOT, stdin: "ignore", stdout: "inherit", stderr: "inherit" });
const code = await run.exited;
stop();
console.log(`test:loaded: exit ${code} after ${((performance.now() - started) / 1000).toFixed(0)} s under load`);
process.exit(code);
