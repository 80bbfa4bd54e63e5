/** tests/conformance/run.ts's command line: `--suite <name>` anywhere, every other word a scenario to run. */
import { expect, test } from "bun:test";
import { commandLine } from "./run.ts";

test("without --suite every word is a scenario, the first one included", () => {
  expect(commandLine(["initialize", "tools_call"])).toEqual({ words: ["initialize", "tools_call"] });
});

test("--suite takes the next word; the rest, before or after it, are scenarios", () => {
  expect(commandLine(["sse-retry", "--suite", "next", "auth/dpop@2026-07-28"])).toEqual({ suite: "next", words: ["sse-retry", "auth/dpop@2026-07-28"] });
  expect(commandLine([])).toEqual({ words: [] });
});
