/** The session's notes for flags only -p and host mode use. */
import { expect, test } from "bun:test";
import { sessionIgnoredFlagLines } from "../../../../lib/cli/flags/print-only.ts";

test("--json-schema and a non-text --output-format are one note each; plain flags none", () => {
  expect(sessionIgnoredFlagLines({ outputFormat: "text" })).toEqual([]);
  expect(sessionIgnoredFlagLines({ outputFormat: "json", jsonSchema: '{"type":"object"}' })).toEqual([
    "note: --json-schema shapes the answer of -p and host mode; the interactive session ignores it",
    "note: --output-format json is for -p and host mode; the interactive session ignores it",
  ]);
});
