/**
 * The OAuth providers of remote servers, loaded on first use: a run with only stdio servers never
 * imports the OAuth code. One wiring (token store, providers) per run.
 */
import type { RegistryOptions } from "../../mcp/registry/registry.ts";
import type { OAuthWiring } from "./wiring.ts";

/**
 * @param allowLogin whether a login may run (a terminal or $BROWSER is then still needed); false
 *   makes a server that needs one an AuthRequiredError, reported as one line.
 */
export function lazyAuthFor(opts: {
  allowLogin: boolean;
  debug?: (line: string) => void;
  stderr?: (line: string) => void;
}): NonNullable<RegistryOptions["authFor"]> {
  let wiring: Promise<OAuthWiring> | undefined;
  return async (config) => {
    wiring ??= import("./wiring.ts").then((m) => m.oauthWiring(opts));
    return (await wiring).providerFor(config);
  };
}
