/**
 * `agent mcp <command>`: inspect configured MCP servers without a model (MCP 2025-11-25:
 * basic/lifecycle, server/tools, server/prompts, server/resources). Starts only the servers the
 * command needs, prints text (or the raw results with --json) on stdout, one line per problem on
 * stderr, and shuts the servers down as a normal run does.
 */
import { loadMcpConfig, type ServerConfig } from "../../../mcp/config/load.ts";
import { readMcpEnv, timeouts } from "../../../mcp/config/env.ts";
import { McpRegistry, type ServerSnapshot } from "../../../mcp/registry/registry.ts";
import { workingDirectoryRoots } from "../../../mcp/session/features.ts";
import { elicitationPolicy } from "../../../agent/elicitation-policy.ts";
import { mapPromptArguments } from "../../../agent/input/mcp-prompts.ts";
import { installExitHandlers, onShutdown, shutdown } from "../../../agent/lifecycle.ts";
import { UsageError } from "../../flags/args.ts";
import { lazyAuthFor } from "../../oauth/lazy.ts";
import { commandUsage, INSPECTOR_USAGE, manageCommand, parseInspectorArgs, parseToolArguments, type InspectorArgs } from "./args.ts";
import * as fmt from "./format.ts";
import { mcpReporter, NO_SERVERS } from "../../ui/server-lines.ts";
import { writeStdout } from "../../io/stdout.ts";
import { colorEnabled, plainUnlessColor } from "../../ui/style.ts";
import { ourColoursOnly, terminalText, visibleText } from "../../../shared/terminal-text.ts";
import type { Task } from "../../../mcp/tasks/task.ts";
import { errorMessage } from "../../../shared/values.ts";

/** A failure of the command (exit 1), printed as `mcp <command>: <message>`. */
class CommandError extends Error {}

// The last filter: a message may quote a config file or a server; only our colours reach the terminal.
const stderr = (line: string) => process.stderr.write(`${ourColoursOnly(line)}\n`);

/**
 * Runs `mcp …` (argv after `mcp`). Returns the exit code: 0 success; 1 a server failed or is
 * unknown, a request failed, or a tool result has isError; 2 usage error (usage on stderr), or a task command for a stdio server.
 */
export async function runInspector(argv: string[]): Promise<number> {
  if (argv[0] === "approve") return (await import("./approve.ts")).runApprove(argv.slice(1));
  const manage = manageCommand(argv);
  if (manage) return (await import("./manage.ts")).runManage(manage.command, manage.argv);
  let args: InspectorArgs;
  try {
    args = parseInspectorArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    // One line: a message that is already a usage line stands alone; others point at the help.
    const { message } = err;
    stderr(message.startsWith("usage:") ? message : `error: ${message}${message.includes("--help") ? "" : " (see agent mcp --help)"}`);
    return 2;
  }
  if (args.help) {
    await writeStdout(INSPECTOR_USAGE + "\n");
    return 0;
  }
  let toolArgs: Record<string, unknown> = {};
  if (args.command === "call" && args.operands[2] !== undefined) {
    const parsed = parseToolArguments(args.operands[2]);
    if (typeof parsed === "string") {
      stderr(`mcp call: ${parsed}`);
      return 2;
    }
    toolArgs = parsed;
  }
  installExitHandlers();
  const cwd = process.cwd();
  const { servers, warnings, unusableExtra } = loadMcpConfig({ cwd, extra: args.mcpConfig, strict: args.strictMcpConfig });
  if (unusableExtra) {
    for (const line of unusableExtra) stderr(`error: ${line}`);
    return 2;
  }
  for (const w of warnings) stderr(w);
  try {
    const selected = selectServers(args, servers);
    if (!selected.length) {
      // A config that was there but could not be used is a failure, not "nothing configured".
      const none = warnings.length ? "No MCP servers could be loaded (see above)." : NO_SERVERS;
      await writeStdout(args.json ? "[]\n" : none + "\n");
      return warnings.length ? 1 : 0;
    }
    if (args.command === "login" || args.command === "logout") return await runAuthCommand(args, selected[0]!);
    if (args.command === "tasks" || args.command === "task") {
      const refusal = (await import("./tasks.ts")).stdioRefusal(args.command, selected[0]!);
      if (refusal) {
        stderr(refusal);
        return 2;
      }
    }
    // `list` and `get` report failures themselves; the other commands need the registry's line.
    const log = args.verbose || !["list", "get"].includes(args.command) ? plainUnlessColor(stderr, colorEnabled(process.stderr)) : () => {};
    const registry = McpRegistry.open({
      cwd,
      ...timeouts(readMcpEnv()),
      log,
      // One request and done: a server that dies is not called again, so its line promises no restart.
      ...mcpReporter(log, { ...args, restarts: false }),
      verbose: args.verbose,
      debug: args.debug,
      // Roots as always; elicitation only when --elicitation says how to answer (no sampling: no model here).
      features: { roots: workingDirectoryRoots(cwd), ...(args.elicitation ? { elicitation: elicitationPolicy(args.elicitation, stderr) } : {}) },
      // A status listing never logs in; the commands that use a server may (a terminal or $BROWSER).
      authFor: lazyAuthFor({ allowLogin: !["list", "get"].includes(args.command), debug: args.debug ? stderr : undefined }),
    });
    onShutdown(() => registry.shutdown());
    // Never asks and never starts a repository's server the user has not approved: a cloned repository runs nothing by surprise.
    const project = selected.filter((s) => s.origin?.scope === "project");
    const held = project.length ? (await import("../../../agent/project-approval.ts")).notStartedWithoutConsent(project, cwd) : new Map<string, string>();
    await registry.connect(selected, held);
    return await run(args, registry, toolArgs);
  } catch (err) {
    // Both can quote a server's names, descriptions or error messages: no codes of theirs reach stderr.
    if (err instanceof CommandError) {
      stderr(terminalText(`mcp ${args.command}: ${err.message}`));
      return 1;
    }
    if (err instanceof UsageError) {
      stderr(terminalText(err.message));
      return 2;
    }
    throw err;
  } finally {
    await shutdown();
  }
}

/** `login` and `logout`: OAuth for one remote server, no MCP session. @throws CommandError */
async function runAuthCommand(args: InspectorArgs, server: ServerConfig): Promise<number> {
  if (!("url" in server)) throw new CommandError(`server "${server.name}" is a local (stdio) server: it gets credentials from its environment, not a login`);
  const { login, logout, oauthWiring } = await import("../../oauth/wiring.ts");
  const wiring = oauthWiring({ allowLogin: true, debug: args.debug ? stderr : undefined });
  if (args.command === "login" && !wiring.interaction) {
    throw new CommandError(`no terminal and no $BROWSER: open a terminal, or set BROWSER, to log in to "${server.name}"`);
  }
  try {
    const line = await (args.command === "login" ? login : logout)(server as Parameters<typeof login>[0], wiring);
    await writeStdout(line + "\n");
    return 0;
  } catch (err) {
    throw new CommandError(err instanceof Error ? err.message : String(err));
  }
}

/** `list` needs every server; the other commands only the one they name. @throws CommandError */
function selectServers(args: InspectorArgs, servers: ServerConfig[]): ServerConfig[] {
  if (args.command === "list") return servers;
  const name = args.operands[0]!;
  const config = servers.find((s) => s.name === name);
  if (config) return [config];
  const names = servers.map((s) => s.name);
  throw new CommandError(`no MCP server named "${visibleText(name)}" (configured: ${names.length ? names.map(visibleText).join(", ") : "none"})`);
}

async function run(args: InspectorArgs, registry: McpRegistry, toolArgs: Record<string, unknown>): Promise<number> {
  // Awaited: index.ts exits as soon as this returns, and a slow reader must still get everything.
  // Text output is for people, on a terminal or through a pipe (`| less -R`, a log read later): a
  // server's text loses its codes either way (terminal-text.ts; CRLF becomes LF). `--json` is for
  // programs: the server's strings exactly, their control characters JSON-escaped (`\u001b`).
  const out = (text: string, raw: unknown) =>
    writeStdout(args.json ? JSON.stringify(raw, null, 2) + "\n" : terminalText(text.endsWith("\n") || text === "" ? text : text + "\n"));
  // Servers may announce more tools right after the handshake (list_changed): report the lists as they now are.
  await registry.refresh();
  const states = registry.snapshot();
  if (args.command === "list") {
    const pending = states.filter(fmt.pendingApproval).map((s) => visibleText(s.name));
    const hint = pending.length ? `\n\nNot started, pending approval (.mcp.json): ${pending.join(", ")}; ${approveHint(pending)}.` : "";
    await out(fmt.listTable(states) + hint, fmt.listJson(states));
    return states.every((s) => s.status !== "failed") ? 0 : 1;
  }
  const state = states[0]!;
  if (args.command === "get") {
    await out(fmt.detailsText(state), fmt.detailsJson(state));
    return state.status !== "failed" ? 0 : 1;
  }
  if (fmt.pendingApproval(state))
    throw new CommandError(
      `MCP server "${visibleText(state.name)}" (.mcp.json) is pending approval, so it was not started: ${approveHint([visibleText(state.name)])}`,
    );
  if (state.status === "disabled") throw new CommandError(`MCP server "${visibleText(state.name)}" is disabled (${state.error})`);
  // The registry already printed why the server failed to start.
  if (state.status !== "connected") return 1;
  const [server, name = "", ...rest] = args.operands as [string, ...string[]];
  switch (args.command) {
    case "tools":
      await out(fmt.toolsText(state.tools), state.tools);
      return 0;
    case "prompts": {
      const prompts = await request(() => registry.prompts(state.name));
      await out(fmt.promptsText(prompts), prompts);
      return 0;
    }
    case "resources":
      // --json stays the resources array it always was; the templates are in `mcp list --json`.
      await out(fmt.resourcesText(state.resources, state.resourceTemplates), state.resources);
      return 0;
    case "call": {
      if (!state.tools.some((t) => t.name === name)) throw new CommandError(`server "${server}" has no tool "${name}" (tools: ${names(state.tools)})`);
      // A task tool's status changes, under --verbose (MCP 2025-11-25, basic/utilities/tasks).
      const statusLine = args.verbose ? (await import("./tasks.ts")).taskStatusLine : undefined;
      const onTaskStatus = statusLine && ((task: Task) => stderr(statusLine(server, task)));
      const result = await request(() => registry.callTool(server, name, toolArgs, { onTaskStatus }));
      await out(fmt.callResultText(result), result);
      return result.isError === true ? 1 : 0;
    }
    case "prompt": {
      const prompt = await findPrompt(registry, state, name);
      const { args: promptArgs, missing } = mapPromptArguments(prompt, rest);
      if (missing.length) {
        const usage = (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
        throw new UsageError([`usage: agent mcp prompt ${server} ${name}`, ...usage].join(" ") + ` (missing: ${missing.join(", ")})`);
      }
      const result = await request(() => registry.getPrompt(server, name, promptArgs));
      await out(fmt.promptResultText(result), result);
      return 0;
    }
    case "skills":
    case "skill": {
      const { skillsCommand } = await import("./skills.ts");
      const shown = await skillsCommand(registry, state, args.command === "skill" ? { name, args: rest.join(" ") } : undefined);
      if (typeof shown !== "string") throw new CommandError(shown.error);
      // --json: the skills/list entries as the server gave them, or the loaded text.
      await out(shown, args.command === "skills" ? (state.skills ?? []) : { text: shown });
      return 0;
    }
    case "tasks":
    case "task": {
      const { runTaskCommand } = await import("./tasks.ts");
      await request(() => runTaskCommand(args.command as "tasks" | "task", { server, taskId: name, cancel: args.cancel }, registry, out, stderr));
      return 0;
    }
    case "read": {
      const result = await request(() => registry.readResource(server, name));
      const contents = Array.isArray(result.contents) ? result.contents : [];
      await out(contents.map((c) => fmt.resourceText(c)).join("\n"), result);
      return 0;
    }
  }
  throw new UsageError(commandUsage(args.command));
}

/** How to approve project servers that were not started because nobody approved them. */
function approveHint(names: string[]): string {
  return `approve at the agent's question in a session here, or with \`mcp approve ${names.join(" ")}\``;
}

/** The named prompt from the start-up list, or asked now when the server declared none. @throws CommandError */
async function findPrompt(registry: McpRegistry, state: ServerSnapshot, name: string) {
  const prompts = await request(() => registry.prompts(state.name));
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) throw new CommandError(`server "${state.name}" has no prompt "${name}" (prompts: ${names(prompts)})`);
  return prompt;
}

/** Runs one request; a JSON-RPC error or a lost server becomes a CommandError naming it. */
async function request<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    throw new CommandError(errorMessage(err));
  }
}

function names(items: readonly { name: string }[]): string {
  return items.length ? items.map((i) => i.name).join(", ") : "none";
}
