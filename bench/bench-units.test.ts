/**
 * The bench's pure pieces: statistics, the table and RESULTS.md merging, the build-script
 * parsing, the synthetic response line. No timing is asserted anywhere.
 */
import { describe, expect, test } from "bun:test";
import { BUILD_FLAGS } from "../scripts/build.ts";
import { productBuildFlags, toggleBytecode } from "./build.ts";
import { responseLine } from "./fig-framing.ts";
import { guarded, median, medianOrFailure, megabytes, ms, msDelta, naRow, oneLine, perSecond, ratio, series, type Row } from "./measure.ts";
import { mergeSection, renderTable, type RunSection } from "./report.ts";

describe("statistics", () => {
  test("median of odd and even counts, unsorted input left alone", () => {
    const input = [5, 1, 3];
    expect(median(input)).toBe(3);
    expect(input).toEqual([5, 1, 3]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow("median of no values");
  });

  test("series interleaves the measures and drops the warm-up", async () => {
    const calls: string[] = [];
    let n = 0;
    const samples = await series(2, {
      a: async () => (calls.push("a"), n++),
      b: async () => (calls.push("b"), n++),
    });
    expect(calls).toEqual(["a", "b", "a", "b", "a", "b"]);
    expect(samples).toEqual({ a: [2, 4], b: [3, 5] });
  });

  test("a guarded measure records its first failure and yields NaN from then on", async () => {
    const failures: Record<string, string> = {};
    let calls = 0;
    const measure = guarded("x", failures, async () => {
      calls++;
      throw new Error("exited with code 3\nstack line");
    });
    expect(await measure()).toBeNaN();
    expect(await measure()).toBeNaN();
    expect(calls).toBe(1);
    expect(failures.x).toBe("exited with code 3");
    expect(medianOrFailure([NaN], failures.x)).toEqual({ failure: "exited with code 3" });
    expect(medianOrFailure([3, 1, 2], undefined)).toEqual({ value: 2 });
    expect(medianOrFailure([], undefined)).toEqual({ failure: "no samples" });
  });

  test("cells are formatted with their units; differences are signed", () => {
    expect(ms(12.345)).toBe("12.3 ms");
    expect(ms(1234.5)).toBe("1235 ms");
    expect(msDelta(12)).toBe("+12.0 ms");
    expect(msDelta(-440.4)).toBe("−440 ms");
    expect(ratio(3, 2)).toBe("1.50×");
    expect(perSecond(12345.6)).toBe("12 346/s");
    expect(megabytes(60 * 2 ** 20)).toBe("60.0 MB");
  });

  test("oneLine keeps a table cell to one escaped line", () => {
    expect(oneLine(new Error("\n  first | line\nsecond"))).toBe("first \\| line");
    expect(oneLine("x".repeat(500)).length).toBe(160);
  });
});

describe("report", () => {
  const row: Row = { figure: "a | b", value: "1 ms", baseline: "2 ms", ratio: "0.50×", target: "≤ 1×", result: "met" };

  test("the table has a header, a rule and one line per row, pipes escaped", () => {
    const lines = renderTable([row, naRow("c", "t", "not built")]).split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe("| figure | measured (median) | baseline, same run (median) | ratio | target | result |");
    expect(lines[2]).toBe("| a \\| b | 1 ms | 2 ms | 0.50× | ≤ 1× | met |");
    expect(lines[3]).toBe("| c | n/a | n/a | — | t | n/a (not built) |");
  });

  const section = (label: string, table: string): RunSection => ({
    label,
    date: "2026-01-01T00:00:00Z",
    machine: "2 cores",
    revision: "abc1234",
    load: "0.10 / 0.20 / 0.30",
    table,
    notes: "notes",
  });

  test("a new label is appended, an existing one replaced in place, others kept", () => {
    const first = mergeSection("", section("before", "TABLE-1"));
    expect(first).toStartWith("# Benchmark results");
    expect(first).toContain("TABLE-1");
    const both = mergeSection(first, section("after", "TABLE-2"));
    expect(both.indexOf("TABLE-1")).toBeLessThan(both.indexOf("TABLE-2"));
    const replaced = mergeSection(both, section("before", "TABLE-3"));
    expect(replaced).not.toContain("TABLE-1");
    expect(replaced.indexOf("TABLE-3")).toBeLessThan(replaced.indexOf("TABLE-2"));
    expect(replaced.match(/<!-- bench:before -->/g)).toHaveLength(1);
  });

  test("a label that could break the markers is refused", () => {
    expect(() => mergeSection("", section("a -->", "T"))).toThrow('bad --label "a -->"');
  });
});

describe("build flags", () => {
  test("the product's flags are the build script's, entry and outfile apart", () => {
    expect(productBuildFlags()).toEqual([...BUILD_FLAGS]);
    expect(productBuildFlags()).toContain("--compile");
    expect(productBuildFlags().some((f) => f.startsWith("--outfile") || f.endsWith(".ts"))).toBe(false);
  });

  test("--bytecode is toggled", () => {
    expect(toggleBytecode(["--compile", "--minify"])).toEqual(["--compile", "--minify", "--bytecode"]);
    expect(toggleBytecode(["--compile", "--bytecode", "--minify"])).toEqual(["--compile", "--minify"]);
  });
});

describe("framing input", () => {
  test("the synthetic response line is one line of JSON-RPC of about the asked size", () => {
    const line = responseLine(1 << 20);
    expect(line).not.toContain("\n");
    expect(Math.abs(Buffer.byteLength(line) - (1 << 20))).toBeLessThan(100);
    const message = JSON.parse(line);
    expect(message).toMatchObject({ jsonrpc: "2.0", id: 1 });
    // Escapes (quotes, newlines, tabs) make the parse do real work; check a slice, not the megabyte.
    expect(message.result.content[0].text.slice(0, 40)).toBe('export function f(a, b) {\n\treturn "a" + ');
  });
});
