/** /status's sandbox line: on, off though asked for, or off with the key that turns it on. */
import { expect, test } from "bun:test";
import { sandboxLine } from "../../../../lib/cli/repl/status.ts";

test("the sandbox line names its state, and when off and not asked for, how to turn it on", () => {
  expect(sandboxLine(true, true)).toBe("sandbox: on (bubblewrap)");
  expect(sandboxLine(false, true)).toBe("sandbox: off (enabled in the settings, but it could not start here)");
  expect(sandboxLine(false, false)).toBe('sandbox: off ("sandbox": {"enabled": true} in .claude/settings.json turns it on)');
});
