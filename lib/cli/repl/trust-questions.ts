/**
 * The interactive session's question before a project's `.mcp.json` servers first start (a cloned
 * repository must not run commands by surprise): the servers with their command lines or URLs,
 * then approve all, choose one by one, or refuse. The answers are remembered by
 * lib/agent/project-approval.ts; this file only asks.
 */
import { createInterface } from "node:readline";
import type { PendingServer } from "../../agent/project-approval.ts";
import type { ServerConfig } from "../../mcp/config/load.ts";
import type { Loosening } from "../../agent/settings/consent.ts";
import { visibleText } from "../../shared/terminal-text.ts";

export interface TrustIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

/**
 * Asks about `pending` on the terminal. Resolves with each name's answer (true: may start), or
 * null when the user left the question (Ctrl-C, Ctrl-D): then nothing is remembered.
 */
export async function askTrust(pending: PendingServer[], io: TrustIO = { input: process.stdin, output: process.stderr }): Promise<Map<string, boolean> | null> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  let left = false;
  const leave = () => {
    left = true;
    rl.close();
  };
  rl.on("SIGINT", leave);
  const ask = (question: string) =>
    new Promise<string | null>((resolve) => {
      const onClose = () => resolve(null);
      rl.once("close", onClose);
      rl.question(question, (answer) => {
        rl.off("close", onClose);
        resolve(answer.trim().toLowerCase());
      });
    });
  // A name or command from the repository is shown with its control characters written out: what is approved is what runs.
  const name = (p: PendingServer) => visibleText(p.name);
  const target = (p: PendingServer) => visibleText(p.target);
  try {
    const width = Math.max(...pending.map((p) => name(p).length));
    const n = pending.length;
    const local = pending.filter((p) => !p.remote).length;
    const risk =
      local === n
        ? "each can run any command on this machine"
        : local === 0
          ? "each is remote and receives what the agent sends it"
          : "local ones can run any command on this machine, remote ones receive what the agent sends them";
    io.output.write(`This project's .mcp.json would start ${n} MCP server${n === 1 ? "" : "s"}; ${risk}:\n`);
    for (const p of pending) io.output.write(`  ${name(p).padEnd(width)}  ${target(p)}${p.changed ? "  (changed since you approved it)" : ""}\n`);
    for (;;) {
      const answer = await ask("Start them? [a]pprove all / [c]hoose / [r]efuse: ");
      if (answer === null || left) return null;
      if (answer === "a" || answer === "approve" || answer === "approve all") return new Map(pending.map((p) => [p.name, true]));
      if (answer === "r" || answer === "refuse") return new Map(pending.map((p) => [p.name, false]));
      if (answer === "c" || answer === "choose") break;
    }
    const answers = new Map<string, boolean>();
    for (const p of pending) {
      for (;;) {
        const answer = await ask(`  start ${name(p)} (${target(p)})? [y/n]: `);
        if (answer === null || left) return null;
        if (answer === "y" || answer === "yes" || answer === "n" || answer === "no") {
          answers.set(p.name, answer.startsWith("y"));
          break;
        }
      }
    }
    return answers;
  } finally {
    rl.close();
  }
}

/**
 * Asks whether a repository's settings files may apply what they loosen (consent.ts lists it):
 * hooks run commands, env and allow rules change what runs without asking. Resolves false for no,
 * Ctrl-C or Ctrl-D: then only their deny and ask rules count.
 */
export async function askSettingsTrust(pending: Loosening[], io: TrustIO = { input: process.stdin, output: process.stderr }): Promise<boolean> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  rl.on("SIGINT", () => rl.close());
  try {
    io.output.write("This project's settings would run hooks or loosen permissions:\n");
    // A hook's command is shown with its control characters written out, so the command seen is the command run.
    for (const f of pending) for (const item of f.items) io.output.write(`  ${visibleText(f.file)}: ${visibleText(item)}\n`);
    for (;;) {
      const answer = await new Promise<string | null>((resolve) => {
        const onClose = () => resolve(null);
        rl.once("close", onClose);
        rl.question("Apply them? [y]es / [n]o (their deny and ask rules apply either way): ", (a) => {
          rl.off("close", onClose);
          resolve(a.trim().toLowerCase());
        });
      });
      if (answer === null || answer === "n" || answer === "no") return false;
      if (answer === "y" || answer === "yes") return true;
    }
  } finally {
    rl.close();
  }
}

/** The session's `approveProjectServers` hook: ask on this terminal, remember the answers. */
export function trustHook(cwd: string): (servers: ServerConfig[]) => Promise<ReadonlySet<string>> {
  return async (servers) => (await import("../../agent/project-approval.ts")).approveInteractively(servers, cwd, (pending) => askTrust(pending));
}
