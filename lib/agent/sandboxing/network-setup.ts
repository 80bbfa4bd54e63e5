/**
 * The sandbox's network from the settings: `network.allowedDomains` with the `WebFetch(domain:…)`
 * allow rules, `network.deniedDomains` with the WebFetch deny rules, and for any other domain the
 * mode's question (the session asks, host mode sends `can_use_tool`), or a refusal where nobody is
 * asked (-p). An answer lasts the run. The proxy listens on a Unix socket in a folder of its own,
 * readable but not writable inside the sandbox.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DomainLists, domainVerdict, normalHost } from "../../sandbox/domains.ts";
import { ownBridgeCommand } from "../../sandbox/network.ts";
import type { ProxyNetwork } from "../../sandbox/policy.ts";
import { startFilteringProxy } from "../../sandbox/proxy.ts";
import type { RuleText } from "../settings/merge.ts";
import type { SandboxSettings } from "../settings/sandbox-keys.ts";
import { onShutdown } from "../lifecycle.ts";

/** The port the bridge listens on inside each sandbox (its own network namespace: nothing else is there). */
export const BRIDGE_PORT = 3128;

/** Asks whether a sandboxed command may reach `host`; absent: refused. */
export type DomainQuestion = (host: string) => Promise<boolean>;

/** The domain lists of the settings and rules. */
export function domainLists(s: SandboxSettings, rules: RuleText[]): DomainLists {
  // allowManagedDomainsOnly: only managed settings' WebFetch allow rules open a domain.
  const counted = (r: RuleText) => r.behavior !== "allow" || !s.managedDomainsOnly || r.file.scope === "managed";
  const webFetch = (behavior: string) =>
    rules.filter((r) => r.behavior === behavior && counted(r)).flatMap((r) => /^WebFetch\(domain:([^)\s]+)\)$/.exec(r.text.trim())?.[1] ?? []);
  return { allowed: [...s.allowedDomains, ...webFetch("allow")], denied: [...s.deniedDomains, ...webFetch("deny")] };
}

/**
 * Starts the proxy for `lists`; the network every sandboxed command gets. `refused`, when given,
 * hears once per host of each refusal nobody was asked about (a deny list, or no question to ask).
 */
export async function startSandboxNetwork(lists: DomainLists, ask: DomainQuestion | undefined, refused?: (line: string) => void): Promise<ProxyNetwork> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-sandbox-net-")));
  const answers = new Map<string, Promise<boolean>>();
  /** Hosts the user said yes to by name at the question. */
  const named = new Set<string>();
  const exact = new Set(lists.allowed.map(normalHost));
  const said = new Set<string>();
  const refuse = (host: string, why: string) => {
    if (refused && !said.has(host)) refused(`sandbox: refused a command's connection to ${host}: ${why}`);
    said.add(host);
    return Promise.resolve(false);
  };
  const proxy = await startFilteringProxy({
    socket: join(dir, "proxy.sock"),
    reachesPrivate: (host) => exact.has(host) || named.has(host),
    decide: (host) => {
      const verdict = domainVerdict(host, lists);
      if (verdict === "deny") return refuse(host, "sandbox.network.deniedDomains or a WebFetch deny rule names it");
      if (verdict === "allow") return Promise.resolve(true);
      if (!ask) return refuse(host, `not in sandbox.network.allowedDomains (add it there, or a WebFetch(domain:${host}) allow rule)`);
      let answer = answers.get(host);
      if (!answer) {
        answer = ask(host).then(
          (yes) => (yes && named.add(host), yes),
          () => false,
        );
        answers.set(host, answer);
      }
      return answer;
    },
  });
  onShutdown(async () => {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { kind: "proxy", socket: proxy.socket, port: BRIDGE_PORT, bridge: ownBridgeCommand() };
}
