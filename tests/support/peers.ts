/**
 * Fixture-server peers for tests: started with flags, killed (whole process group) after every
 * test by the preloaded tests/support/cleanup.ts. (A hook registered here would bind to the first
 * test file that imports this module only.)
 */
import { Peer } from "../../fixtures/servers/peer.ts";

const peers: Peer[] = [];

/** Kills every peer started so far, grandchildren included. */
export function killPeers(): void {
  for (const p of peers.splice(0)) p.killGroup();
}

export function start(...flags: string[]): Peer {
  return startWith(flags);
}

/** `start` with spawn options (working directory, extra environment). */
export function startWith(flags: string[], opts?: Parameters<typeof Peer.start>[1]): Peer {
  const peer = Peer.start(flags, opts);
  peers.push(peer);
  return peer;
}

/** `tools/call` through the raw peer. */
export const call = (peer: Peer, name: string, args: Record<string, unknown> = {}) => peer.request("tools/call", { name, arguments: args });
