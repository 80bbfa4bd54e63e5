/**
 * Fixture-server peers for a test file: started with flags, killed (whole process group) after
 * every test of the file that imports this.
 */
import { afterEach } from "bun:test";
import { Peer } from "../../fixtures/servers/peer.ts";

const peers: Peer[] = [];
afterEach(() => {
  for (const p of peers.splice(0)) p.killGroup();
});

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
