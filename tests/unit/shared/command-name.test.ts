/** commandName (lib/shared/command-name.ts): how hints name the program. */
import { expect, test } from "bun:test";
import { commandName } from "../../../lib/shared/command-name.ts";

test("the script's name from a checkout, the executable's own from an install, AGENT_COMMAND first", () => {
  expect(commandName({}, "/home/u/.bun/bin/bun")).toBe("./your_program.sh");
  expect(commandName({}, "/usr/local/bin/agent")).toBe("agent");
  expect(commandName({ AGENT_COMMAND: "./your_program.sh" }, "/repo/dist/agent")).toBe("./your_program.sh");
});
