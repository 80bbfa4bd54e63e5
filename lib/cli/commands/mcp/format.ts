/**
 * Text output of `agent mcp …` for people (the `--json` output is the raw results). Renders
 * server states, tool/prompt/resource lists (MCP 2025-11-25 server/tools, server/prompts,
 * server/resources) and content blocks. Pure functions; input from servers is never trusted
 * to have the right shape, so nothing here throws on a malformed result. A server's name and
 * command line come from a config file a repository may have written: they are shown with their
 * control characters written out (`\x1b]…`), so a hostile name cannot pass for another one.
 */
import type { ServerConfig, ServerOrigin } from "../../../mcp/config/load.ts";
import type { McpPrompt, McpResource, McpResourceTemplate, McpTool } from "../../../mcp/protocol/protocol.ts";
import type { ServerSnapshot } from "../../../mcp/registry/registry.ts";
import { stderrSuffix } from "../../ui/stderr-tail.ts";
import { visibleText } from "../../../shared/terminal-text.ts";
import { schemaType } from "./schema-type.ts";

// What servers return (content blocks, call and prompt results) has a file of its own.
export { callResultText, contentText, promptResultText, resourceText } from "./content-text.ts";

/**
 * A config for display, as written (before `${VAR}` expansion): command and args with every env
 * value `***`, or the URL with every header value `***` (values may be secrets).
 */
export function maskConfig(config: ServerConfig): ServerConfig {
  const mask = (values: Record<string, string>) => Object.fromEntries(Object.keys(values).map((k) => [k, "***"]));
  if (config.type === "sdk") return config;
  if (config.type !== "stdio") {
    // The oauth block's secrets (client secret, private key, ID tokens) are masked too; ids and ports are not secrets.
    const oauth = config.oauth && Object.fromEntries(Object.entries(config.oauth).map(([k, v]) => [k, /secret|privateKey|idToken/i.test(k) ? "***" : v]));
    return {
      type: config.type,
      name: config.name,
      url: (config.written ?? config).url,
      headers: mask(config.headers),
      ...(oauth ? { oauth: oauth as typeof config.oauth } : {}),
    };
  }
  const { command, args } = config.written ?? config;
  return { type: config.type, name: config.name, command, args, env: mask(config.env) };
}

/**
 * `command arg1 "arg with space"` as the config wrote it (so `${TOKEN}` stays a reference, never its
 * value): one line a user can read, not a shell-exact quoting. For a remote server, its URL as written.
 */
export function commandLine(config: ServerConfig): string {
  if (config.type === "sdk") return "(in the host program)";
  if (config.type !== "stdio") return (config.written ?? config).url;
  const { command, args } = config.written ?? config;
  return [command, ...args].map((a) => (a === "" || /[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

/**
 * "http https://…/mcp" for a remote server, "stdio npx -y server" for a process one (transport and
 * command or URL as written): a failed row says what was started, as Claude Code's list does.
 */
function transportLabel(config: ServerConfig): string {
  if (config.type === "sdk") return "sdk  ";
  return `${config.type} ${visibleText(commandLine(config))}  `;
}

/** Why a server failed, with its telling stderr lines: the same words as the start-up failure line. */
export function failureReason(state: ServerSnapshot): string {
  return `${state.error ?? "unknown error"}${stderrSuffix(state.stderr)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A project server not started because the user has not approved it (lib/agent/project-approval.ts). */
export function pendingApproval(s: ServerSnapshot): boolean {
  return s.status === "disabled" && s.error === "pending approval";
}

/** `connected`, `failed`, `pending approval`, or `disabled (not approved)` / `disabled (by its entry)`. */
function statusText(s: ServerSnapshot): string {
  if (pendingApproval(s)) return "pending approval";
  return s.status === "disabled" ? `disabled (${s.error ?? "by its entry"})` : s.status;
}

/** `~/…` for a file under HOME, `./…` under the working directory; `--mcp-config` as is. */
function shortPath(file: string): string {
  const home = process.env.HOME;
  const cwd = process.cwd();
  if (file.startsWith(`${cwd}/`)) return file.slice(cwd.length + 1);
  if (home && file.startsWith(`${home}/`)) return `~/${file.slice(home.length + 1)}`;
  return file;
}

/** `local (~/.claude.json); shadows project (.mcp.json), user (~/.claude.json)`: where the winning entry is, and what it hides. */
export function originText(origin: ServerOrigin): string {
  const one = (o: { scope: string; file: string }) => `${o.scope} (${shortPath(o.file)})`;
  return `${one(origin)}${origin.shadows?.length ? `; shadows ${origin.shadows.map(one).join(", ")}` : ""}`;
}

/**
 * `mcp list`: one row per server: name, status, then counts or the failure reason (with the
 * capabilities that did arrive when the handshake failed after initialize); under it, the
 * scope and file its entry comes from and what that entry shadows.
 */
export function listTable(states: ServerSnapshot[]): string {
  const width = Math.max(...states.map((s) => visibleText(s.name).length));
  const statusWidth = Math.max(9, ...states.map((s) => statusText(s).length));
  return states
    .map((s) => {
      const caps = s.capabilities ? `; capabilities: ${capabilityList(s.capabilities) || "(none)"}` : "";
      const detail = s.status === "connected" ? provides(s) : s.status === "failed" ? failureReason(s) + caps : "";
      const row = `${visibleText(s.name).padEnd(width)}  ${statusText(s).padEnd(statusWidth)}  ${transportLabel(s.config)}${detail}`.trimEnd();
      return s.config.origin ? `${row}\n${" ".repeat(width + 2)}${originText(s.config.origin)}` : row;
    })
    .join("\n");
}

/** `3 tools, 1 prompt, 2 resources`, then `, 1 resource template` when the server has any. */
function provides(s: ServerSnapshot): string {
  const templates = s.resourceTemplates?.length ? [plural(s.resourceTemplates.length, "resource template")] : [];
  const skills = s.skills?.length ? [plural(s.skills.length, "skill")] : [];
  return [plural(s.tools.length, "tool"), plural(s.prompts.length, "prompt"), plural(s.resources.length, "resource"), ...templates, ...skills].join(", ");
}

/** Scope, source file and shadowed entries, for the JSON outputs. */
function originJson(s: ServerSnapshot): object {
  const o = s.config.origin;
  return o ? { scope: o.scope, source: o.file, ...(o.shadows?.length ? { shadows: o.shadows.map((x) => ({ scope: x.scope, source: x.file })) } : {}) } : {};
}

/** `mcp list --json`: name, status, error, counts, scope and source per server. */
export function listJson(states: ServerSnapshot[]): object[] {
  return states.map((s) => ({
    name: s.name,
    status: s.status,
    ...(s.config.type === "stdio"
      ? {}
      : s.config.type === "sdk"
        ? { transport: "sdk" }
        : { transport: s.config.type, url: (s.config.written ?? s.config).url }),
    ...(s.error ? { error: s.error } : {}),
    tools: s.tools.length,
    prompts: s.prompts.length,
    resources: s.resources.length,
    ...(s.resourceTemplates?.length ? { resourceTemplates: s.resourceTemplates.length } : {}),
    ...(s.skills ? { skills: s.skills.length } : {}),
    ...originJson(s),
  }));
}

/** `mcp get --json`: configuration (env masked), status, and what the server declared. */
export function detailsJson(s: ServerSnapshot): object {
  return {
    name: s.name,
    status: s.status,
    ...(s.error ? { error: s.error, stderr: s.stderr } : {}),
    ...originJson(s),
    config: maskConfig(s.config),
    protocolVersion: s.protocolVersion,
    ...(s.era ? { era: s.era } : {}),
    serverInfo: s.serverInfo,
    capabilities: s.capabilities,
    instructions: s.instructions,
  };
}

/** `mcp get`: the same as detailsJson, as labelled lines. */
export function detailsText(s: ServerSnapshot): string {
  const status = s.status === "failed" ? `failed: ${s.error ?? "unknown error"}` : statusText(s);
  const lines = [visibleText(s.name), `  status:        ${status}`];
  if (s.config.origin) lines.push(`  scope:         ${originText(s.config.origin)}`);
  if (s.config.type === "stdio") {
    lines.push(`  command:       ${visibleText(commandLine(s.config))}`);
    const env = Object.keys(s.config.env);
    if (env.length) lines.push(`  env:           ${env.map((k) => `${k}=***`).join(" ")}`);
  } else if (s.config.type === "sdk") {
    lines.push("  transport:     sdk (in the host program)");
  } else {
    lines.push(
      `  transport:     ${s.config.type === "http" ? "http (Streamable HTTP)" : "sse (legacy HTTP+SSE)"}`,
      `  url:           ${visibleText(commandLine(s.config))}`,
    );
    const headers = Object.keys(s.config.headers);
    if (headers.length) lines.push(`  headers:       ${headers.map((k) => `${k}: ***`).join(", ")}`);
    const oauth = oauthText(s.config);
    if (oauth) lines.push(`  oauth:         ${oauth}`);
  }
  const options = optionsText(s.config);
  if (options) lines.push(`  options:       ${options}`);
  if (s.status === "failed" && s.stderr.length) lines.push("  stderr:", ...s.stderr.map((l) => `    ${l}`));
  // A server that failed after initialize still told us who it is and what it offers.
  if (!s.capabilities) return lines.join("\n");
  const info = s.serverInfo;
  if (info) lines.push(`  server:        ${info.name} ${info.version}${info.title ? ` (${info.title})` : ""}`);
  if (s.protocolVersion) lines.push(`  protocol:      ${s.protocolVersion}${s.era ? ` (${eraText(s.era)})` : ""}`);
  lines.push(`  capabilities:  ${capabilityList(s.capabilities ?? {}) || "(none)"}`);
  if (s.status === "connected") {
    lines.push(`  provides:      ${provides(s)}`);
  }
  if (s.instructions) lines.push("  instructions:", ...s.instructions.split("\n").map((l) => `    ${l}`.trimEnd()));
  return lines.join("\n");
}

/** `clientId app, callbackPort 8976, scopes read write, clientSecret ***`: the entry's oauth block, secrets masked as in maskConfig. */
function oauthText(config: ServerConfig): string {
  const masked = maskConfig(config);
  if (masked.type !== "http" && masked.type !== "sse") return "";
  return Object.entries(masked.oauth ?? {})
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(" ") || "(none)" : String(v)}`)
    .join(", ");
}

/** `timeout 1500 ms, toolTimeout 250 ms, includeTools echo add, cwd /p/sub`: the per-server options set. */
function optionsText(c: ServerConfig): string {
  const parts: string[] = [];
  if (c.timeoutMs !== undefined) parts.push(`timeout ${c.timeoutMs} ms`);
  if (c.toolTimeoutMs !== undefined) parts.push(`toolTimeout ${c.toolTimeoutMs} ms`);
  if (c.includeTools) parts.push(`includeTools ${c.includeTools.join(" ") || "(none)"}`);
  if (c.excludeTools) parts.push(`excludeTools ${c.excludeTools.join(" ") || "(none)"}`);
  if (c.type === "stdio" && c.cwd) parts.push(`cwd ${c.cwd}`);
  return parts.join(", ");
}

/** `tools (listChanged), prompts, resources (subscribe, listChanged), logging`. */
function capabilityList(caps: Record<string, unknown>): string {
  return Object.entries(caps)
    .map(([name, value]) => {
      const flags =
        value && typeof value === "object"
          ? Object.entries(value)
              .filter(([, v]) => v === true)
              .map(([k]) => k)
          : [];
      return flags.length ? `${name} (${flags.join(", ")})` : name;
    })
    .join(", ");
}

/** `mcp tools`: name, first description line, then the arguments from inputSchema, each with its type (schemaType). */
export function toolsText(tools: readonly McpTool[]): string {
  if (!tools.length) return "No tools.";
  return tools
    .map((t) => {
      const schema = (t.inputSchema ?? {}) as { properties?: Record<string, { description?: string }>; required?: unknown };
      const required = Array.isArray(schema.required) ? schema.required : [];
      const args = Object.entries(schema.properties ?? {}).map(
        ([name, p]) => `    ${name}${required.includes(name) ? "" : "?"}: ${schemaType(p)}${p?.description ? `  ${firstLine(p.description)}` : ""}`,
      );
      return [`${t.name}${t.description ? `  ${firstLine(t.description)}` : ""}`, ...args].join("\n");
    })
    .join("\n");
}

/** `mcp prompts`: name with its arguments as `<required> [optional]`, and its description. */
export function promptsText(prompts: readonly McpPrompt[]): string {
  if (!prompts.length) return "No prompts.";
  return prompts
    .map((p) => {
      const args = (p.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
      return [[p.name, ...args].join(" "), p.description ? `  ${firstLine(p.description)}` : ""].join("");
    })
    .join("\n");
}

/** `mcp resources`: uri, name, mime type and description; then the resource templates (RFC 6570), if any. */
export function resourcesText(resources: readonly McpResource[], templates: readonly McpResourceTemplate[] = []): string {
  if (!resources.length && !templates.length) return "No resources.";
  const row = (uri: string, r: McpResource | McpResourceTemplate) =>
    [uri, r.name, r.mimeType ? `(${r.mimeType})` : "", r.description ? firstLine(r.description) : ""].filter(Boolean).join("  ");
  const lines = resources.map((r) => row(r.uri, r));
  if (templates.length) lines.push(...(lines.length ? [""] : []), "Resource templates:", ...templates.map((t) => row(t.uriTemplate, t)));
  return lines.join("\n");
}

function firstLine(s: string): string {
  return s.trim().split("\n")[0]!;
}

/** The era as a person reads it: how the session was opened. */
export function eraText(era: "legacy" | "modern"): string {
  return era === "modern" ? "modern era: per-request _meta, no initialize" : "legacy era: initialize session";
}
