/**
 * fatalLine, the one line an error that ends the run leaves on stderr: a message quoting a
 * server, a file or a hook keeps its text and loses every terminal code but a colour.
 */
import { expect, test } from "bun:test";
import { fatalLine } from "../../../lib/agent/lifecycle.ts";

test("an error quoting terminal codes: the text stays, the clipboard write, title and cursor moves go", () => {
  const line = fatalLine(new Error('server "x\x1b]52;c;aGk=\x07\x1b]2;title\x07\x1b[2A\x1b[2K" broke'));
  expect(line).toBe('error: server "x" broke');
  expect(fatalLine("plain \x1b]0;t\x07thrown")).toBe("error: plain thrown");
});
