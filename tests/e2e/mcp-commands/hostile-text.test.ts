/**
 * The `mcp` inspector and a hostile configuration or server, through the real program: a server
 * name carrying terminal codes is shown with them written out, so it cannot pass for another
 * server's name; a server's own text (tool names, descriptions) loses its codes in text output on
 * a pipe as on a terminal, and `--json` keeps the server's strings exactly, JSON-escaped.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { CODES } from "../../../fixtures/servers/hostile-codes.ts";
import { BUN, fixtureServer, ROOT, runAgent, tempDir, writeMcpConfig } from "../../support/run.ts";

/** What a terminal would act on: ESC, BEL, the 8-bit CSI and OSC introducers. */
const RAW_CODES = /[\x1b\x07\x9b\x9d]/;

test("mcp list: a server named like another plus terminal codes is shown with the codes written out, on a row of its own", async () => {
  const dir = tempDir();
  // Stripped, the second name would read "db" twice; the erase-line code would even hide the real row.
  writeMcpConfig(dir, { db: fixtureServer(), "db\x1b[1A\x1b[2K": fixtureServer() });
  const r = await runAgent(["mcp", "list"], { cwd: dir, projectServers: "as-is" });
  expect(r.stdout).not.toMatch(RAW_CODES);
  const rows = r.stdout.split("\n").filter((l) => l.startsWith("db"));
  expect(rows.map((l) => l.split(/\s{2,}/)[0])).toEqual(["db", "db\\x1b[1A\\x1b[2K"]);
  // The approval hint names it the same way.
  expect(r.stdout).toContain("pending approval (.mcp.json): db, db\\x1b[1A\\x1b[2K;");
  const get = await runAgent(["mcp", "get", "db\x1b[1A\x1b[2K"], { cwd: dir, projectServers: "as-is" });
  expect(get.stdout.split("\n")[0]).toBe("db\\x1b[1A\\x1b[2K");
});

test("mcp tools on a pipe: the server's codes are removed from text output; --json keeps them, escaped", async () => {
  const dir = tempDir();
  writeMcpConfig(dir, { hostile: { command: BUN, args: [join(ROOT, "fixtures/servers/hostile-server.ts")] } });
  const text = await runAgent(["mcp", "tools", "hostile"], { cwd: dir });
  expect(text.code).toBe(0);
  expect(text.stdout).toContain("echoHOSTILE");
  expect(text.stdout).not.toMatch(RAW_CODES);
  const json = await runAgent(["mcp", "tools", "hostile", "--json"], { cwd: dir });
  expect(json.code).toBe(0);
  expect(json.stdout).not.toMatch(RAW_CODES);
  const names = (JSON.parse(json.stdout) as { name: string }[]).map((t) => t.name);
  expect(names).toContain(`echo${CODES}`);
});

test("mcp list: a config warning naming a server with terminal codes shows them written out on stderr, never raw", async () => {
  const dir = tempDir();
  // An unusable entry is skipped with a warning that names it: the name must not set the clipboard.
  writeMcpConfig(dir, { db: fixtureServer(), "x\x1b]52;c;aGk=\x07": { type: "weird" } as never });
  const r = await runAgent(["mcp", "list"], { cwd: dir, projectServers: "as-is" });
  expect(r.stderr).not.toMatch(RAW_CODES);
  expect(r.stderr).toContain('server "x\\x1b]52;c;aGk=\\x07"');
});
