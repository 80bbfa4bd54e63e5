/** The Claude home's paths (claude-home.ts), the one place that computes them: $CLAUDE_CONFIG_DIR, then $HOME. */
import { expect, test } from "bun:test";
import { homedir } from "node:os";
import { homeDir, userConfigDir, userConfigFile, userSettingsFile } from "../../../lib/shared/claude-home.ts";

test("$CLAUDE_CONFIG_DIR holds the folder, .claude.json and settings.json", () => {
  const env = { CLAUDE_CONFIG_DIR: "/c", HOME: "/h" };
  expect([userConfigDir(env), userConfigFile(env), userSettingsFile(env)]).toEqual(["/c", "/c/.claude.json", "/c/settings.json"]);
});

test("without it: ~/.claude and ~/.claude.json, $HOME first", () => {
  const env = { HOME: "/h" };
  expect([userConfigDir(env), userConfigFile(env), userSettingsFile(env)]).toEqual(["/h/.claude", "/h/.claude.json", "/h/.claude/settings.json"]);
  expect(userConfigDir({ CLAUDE_CONFIG_DIR: "", HOME: "/h" })).toBe("/h/.claude");
});

test("no $HOME: the account's home folder", () => {
  expect(homeDir({})).toBe(homedir());
  expect(userConfigFile({})).toBe(`${homedir()}/.claude.json`);
});
