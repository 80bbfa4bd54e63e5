/**
 * scripts/test.ts's pure pieces: how test files are grouped into `bun test` processes, and how
 * Bun's summary is read (a miscount would let a failed run print "0 failed").
 */
import { describe, expect, test } from "bun:test";
import { counts, unitsOf } from "../../../scripts/test.ts";

describe("unitsOf", () => {
  test("a unit-test folder is one process; every other file, and a file directly in tests/unit, is its own", () => {
    const files = [
      "tests/unit/agent/loop.test.ts",
      "tests/unit/agent/mcp/names.test.ts",
      "tests/unit/layers.test.ts",
      "tests/unit/tools/bash.test.ts",
      "tests/e2e/print/flags.test.ts",
      "tests/e2e/print/tools.test.ts",
      "bench/bench-units.test.ts",
    ];
    expect(unitsOf(files)).toEqual([
      { name: "tests/unit/agent/", files: ["tests/unit/agent/loop.test.ts", "tests/unit/agent/mcp/names.test.ts"] },
      { name: "tests/unit/layers.test.ts", files: ["tests/unit/layers.test.ts"] },
      { name: "tests/unit/tools/", files: ["tests/unit/tools/bash.test.ts"] },
      { name: "tests/e2e/print/flags.test.ts", files: ["tests/e2e/print/flags.test.ts"] },
      { name: "tests/e2e/print/tools.test.ts", files: ["tests/e2e/print/tools.test.ts"] },
      { name: "bench/bench-units.test.ts", files: ["bench/bench-units.test.ts"] },
    ]);
  });
});

describe("counts", () => {
  test("reads pass, fail and skip (todo counts as skipped) from Bun's summary lines only", () => {
    const output = "(pass) a > 3 pass [1ms]\n(fail) b\n\n 12 pass\n 2 skip\n 1 todo\n 3 fail\n 40 expect() calls\n";
    expect(counts(output)).toEqual({ pass: 12, fail: 3, skip: 3 });
  });

  test("no summary (a crash before it) is zero of each; the runner then goes by the exit code", () => {
    expect(counts("Segmentation fault\n")).toEqual({ pass: 0, fail: 0, skip: 0 });
  });
});
