/**
 * Side by side with Claude Code's own executable (from the Agent SDK package, offline, the same
 * project, the same scripted model): for each rewrite that tries to get past a Bash, Read or Edit
 * deny rule, whether it held in each program, judged by its effect on disk or by what reached the
 * model. The table records where Claude Code holds; ours must hold on every case where it does
 * (and holds on the rest too). Skipped when the executable is not installed.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, type Step, startModelServer, text, toolUse } from "../../support/model-server.ts";
import { baseEnv, ROOT, runAgent, tempDir } from "../../support/run.ts";
import { projectSettings } from "./settings-support.ts";

const CLAUDE = join(ROOT, "node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude");
const HAVE_CLAUDE = existsSync(CLAUDE);
const SLOW = 180_000;

interface Case {
  name: string;
  /** The model's call; `N` stands for the case's own victim file number. */
  call: Step;
  /** True when the rule held in the folder after the run. */
  held(dir: string, sent: string): boolean;
  /** Claude Code 2.1.332's result, as measured with this test. */
  claudeHolds: boolean;
}

const bash = (command: string) => reply(toolUse("Bash", { command }));
const survives = (n: number) => (dir: string) => existsSync(join(dir, `victim${n}.txt`));
const rm = (n: number, command: string, claudeHolds: boolean, name = command): Case => ({
  name,
  call: bash(command.replace("VICTIM", `victim${n}.txt`)),
  held: survives(n),
  claudeHolds,
});

/** A Bash read of its own denied file `secrets/kN.txt`, which holds SECRET-N. */
const read = (n: number, command: string, claudeHolds: boolean): Case => ({
  name: command,
  call: bash(command),
  held: (_, sent) => !sent.includes(`SECRET-${n}-VALUE`),
  claudeHolds,
});
/** A Bash write of its own file into the Edit-denied folder. */
const write = (n: number, command: string, claudeHolds: boolean): Case => ({
  name: command,
  call: bash(command),
  held: (dir) => !existsSync(join(dir, "protected", `w${n}.txt`)),
  claudeHolds,
});

const CASES: Case[] = [
  rm(0, "rm -f VICTIM", true, "plain rm"),
  rm(1, "> out1.txt rm -f VICTIM", true, "a redirection before the program"),
  rm(2, "timeout --signal KILL 5 rm -f VICTIM", true, "a wrapper's long option with a value"),
  rm(3, "env -S 'rm -f VICTIM'", true, "env -S"),
  rm(4, "X=rm; $X -f VICTIM", true, "a program in a variable"),
  rm(5, 'r""m -f VICTIM', true, "quotes inside the program name"),
  rm(6, "r{m,} -f VICTIM", false, "braces in the program name"),
  // Held in one run of three (the glob's expansion is not checked the same way every time).
  rm(7, "/bin/r? -f VICTIM", false, "a glob in the program name"),
  rm(8, "rm$IFS-f${IFS}VICTIM", false, "$IFS in the program name"),
  rm(9, "$(echo rm) -f VICTIM", false, "a substitution as the program"),
  rm(10, "trap 'rm -f VICTIM' EXIT", false, "trap"),
  rm(11, "coproc rm -f VICTIM", false, "coproc"),
  {
    name: "cat of a Read-denied file",
    call: bash("cat secrets/key.txt"),
    held: (_, sent) => !sent.includes("TOPSECRET-VALUE"),
    claudeHolds: true,
  },
  read(1, "head -n 1 secrets/k1.txt", true),
  read(2, "grep -h SECRET secrets/k2.txt", true),
  read(3, "cat < secrets/k3.txt", true),
  read(4, "cd secrets && cat k4.txt", true),
  read(5, "X=secrets/k5.txt; cat $X", true),
  write(1, "echo x > protected/w1.txt", true),
  write(2, "echo x | tee protected/w2.txt", true),
  write(3, "cp victim0.txt protected/w3.txt", true),
  {
    name: "a new file through a linked folder into an Edit-denied one",
    call: reply(toolUse("Write", { file_path: "innocent/planted.txt", content: "x" })),
    held: (dir) => !existsSync(join(dir, "protected", "planted.txt")),
    claudeHolds: true,
  },
  {
    name: "a new file through a dangling link into an Edit-denied folder",
    call: reply(toolUse("Write", { file_path: "dangling.txt", content: "x" })),
    held: (dir) => !existsSync(join(dir, "protected", "via-link.txt")),
    claudeHolds: true,
  },
];

/** Claude Code in -p refuses what no rule allows: allow the tools, so that only the deny rules stand in the way. */
const ALLOW = ["--allowedTools", "Bash,Write,Edit"];

/** Runs one program over every case in a fresh project; returns which held. */
async function side(program: "claude" | "agent", cases = CASES, allow = ALLOW): Promise<boolean[]> {
  const dir = tempDir();
  const home = tempDir("agent-home-");
  for (let i = 0; i < cases.length; i++) writeFileSync(join(dir, `victim${i}.txt`), "x");
  mkdirSync(join(dir, "secrets"));
  writeFileSync(join(dir, "secrets", "key.txt"), "TOPSECRET-VALUE\n");
  for (let n = 1; n <= 5; n++) writeFileSync(join(dir, "secrets", `k${n}.txt`), `SECRET-${n}-VALUE\n`);
  mkdirSync(join(dir, "protected"));
  symlinkSync(join(dir, "protected"), join(dir, "innocent"));
  symlinkSync("protected/via-link.txt", join(dir, "dangling.txt"));
  projectSettings({ dir, config: home }, { permissions: { deny: ["Bash(rm:*)", "Read(./secrets/**)", "Edit(./protected/**)"] } });
  const server = startModelServer([...cases.map((c) => c.call), reply(text("done"))]);
  try {
    if (program === "agent") await runAgent(["-p", "hello", ...allow], { cwd: dir, model: server.url, env: { HOME: home } });
    else {
      const env = { ...baseEnv(server.url), HOME: home, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" } as Record<string, string>;
      delete env.CLAUDE_CONFIG_DIR;
      const proc = Bun.spawn([CLAUDE, "-p", "hello", ...allow], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      await proc.exited;
    }
    const sent = JSON.stringify(server.requests.map((r) => r.body.messages));
    return cases.map((c) => c.held(dir, sent));
  } finally {
    server.stop();
  }
}

describe.skipIf(!HAVE_CLAUDE)("deny rules side by side with Claude Code", () => {
  test(
    "ours holds wherever Claude Code holds, and on the rewrites where it does not",
    async () => {
      const [claude, ours] = await Promise.all([side("claude"), side("agent")]);
      const table = (held: boolean[]) => Object.fromEntries(CASES.map((c, i) => [c.name, held[i]]));
      // Claude Code's own results are the table's record, not the test's subject: a difference is a note.
      const changed = CASES.filter((c, i) => claude[i] !== c.claudeHolds).map((c) => c.name);
      if (changed.length) console.warn(`Claude Code differed from the recorded table on: ${changed.join(", ")}`);
      expect(table(ours)).toEqual(table(CASES.map(() => true)));
    },
    SLOW,
  );

  test(
    "an allow rule for echo does not let it write outside the project through a redirect",
    async () => {
      const outside = join(tempDir("agent-outside-"), "pwned.txt");
      const cases: Case[] = [{ name: "echo > outside", call: bash(`echo pwned > ${outside}`), held: () => !existsSync(outside), claudeHolds: true }];
      const allow = ["--permission-mode", "default", "--allowedTools", "Bash(echo:*)"];
      const claude = await side("claude", cases, allow);
      expect(claude).toEqual([true]);
      expect(await side("agent", cases, allow)).toEqual([true]);
    },
    SLOW,
  );
});
