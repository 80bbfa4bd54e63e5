import { describe, expect, test } from "bun:test";
import { readableLines, stderrSuffix } from "../../../../lib/cli/ui/stderr-tail.ts";

/** Node 20's output for a missing entry module, as it prints it. */
const NODE_MISSING_MODULE = [
  "node:internal/modules/cjs/loader:1210",
  "  throw err;",
  "  ^",
  "",
  "Error: Cannot find module '/x/indx.js'",
  "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
  "    at node:internal/main/run_main_module:28:49 {",
  "  code: 'MODULE_NOT_FOUND',",
  "  requireStack: []",
  "}",
  "",
  "Node.js v20.20.2",
];

describe("stderrSuffix", () => {
  test("a Node stack: the error's line first, then the last lines; no frame, no object dump, no stray }", () => {
    expect(stderrSuffix(NODE_MISSING_MODULE)).toBe(" (stderr: Error: Cannot find module '/x/indx.js' | Node.js v20.20.2)");
  });

  test("a Python traceback: the error line first, then the lines before it", () => {
    const tail = [
      "Traceback (most recent call last):",
      '  File "/x/srv.py", line 1, in <module>',
      "    import foo",
      "ModuleNotFoundError: No module named 'foo'",
    ];
    expect(stderrSuffix(tail)).toBe(` (stderr: ModuleNotFoundError: No module named 'foo' | File "/x/srv.py", line 1, in <module> | import foo)`);
  });

  test("no error named: the last three readable lines; nothing readable: nothing", () => {
    expect(stderrSuffix(["a", "b", "{", "c", "d"])).toBe(" (stderr: b | c | d)");
    expect(stderrSuffix(["one", "two", "fatal: boom", "three", "four", "five"])).toBe(" (stderr: fatal: boom | four | five)");
    expect(stderrSuffix(["}", "", "  ^"])).toBe("");
  });

  test("nested dumps are skipped whole", () => {
    expect(readableLines(["Error: x", "    at f {", "  cause: {", "    a: 1", "  },", "  b: [", "  ]", "}", "after"])).toEqual(["Error: x", "after"]);
  });
});
