/**
 * The in-namespace half of the sandbox's network: run inside bubblewrap by our own executable
 * (`agent __sandbox-bridge <port> <socket>`), it listens on 127.0.0.1:<port>, the only address a
 * sandboxed command has, and carries each connection to the host-side proxy's Unix socket. It
 * prints `ready` once listening; the launcher (network.ts) starts the command only then.
 */
import { connect, createServer } from "node:net";

/** Runs the bridge until the sandbox ends (never resolves); 2 on bad arguments. */
export function runBridge(argv: string[]): Promise<number> {
  const port = Number(argv[0]);
  const socket = argv[1];
  if (!Number.isInteger(port) || port <= 0 || port > 65535 || !socket) {
    process.stderr.write("usage: __sandbox-bridge <port> <unix socket>\n");
    return Promise.resolve(2);
  }
  const server = createServer((client) => {
    const upstream = connect(socket);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end);
    upstream.on("error", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) => {
    server.once("error", (err) => {
      process.stderr.write(`sandbox bridge: ${err.message}\n`);
      resolve(1);
    });
    server.listen(port, "127.0.0.1", () => process.stdout.write("ready\n"));
  });
}
