/**
 * OAuth client secrets given with `mcp add --client-secret`, kept apart from every scope's file
 * (a project's `.mcp.json` is shared through git, the user file is rewritten by other programs):
 * one JSON file `{"<server>": {"url": "…", "clientSecret": "…"}}`, mode 0600, in the user's
 * config folder. The OAuth side reads it with `readClientSecret`.
 */
import { editJsonFile } from "../../files/json-edit.ts";
import { readJsonFile, valueAt } from "./scopes.ts";

/** The store's file name inside the user's config folder. */
export const CLIENT_SECRETS_FILE = "mcp-client-secrets.json";

/**
 * Stores `secret` for server `name` at `url`, replacing an older one.
 * @throws ConfigWriteError when the file cannot be written.
 */
export function saveClientSecret(file: string, name: string, url: string, secret: string): void {
  editJsonFile(file, () => [{ path: [name], value: { url, clientSecret: secret } }], { mode: 0o600 });
}

/** The secret stored for `name`, only when it was given for this same `url`; never throws. */
export function readClientSecret(file: string, name: string, url: string): string | undefined {
  const doc = readJsonFile(file).doc;
  const secret = valueAt(doc, [name, "clientSecret"]);
  return valueAt(doc, [name, "url"]) === url && typeof secret === "string" ? secret : undefined;
}

/** Forgets the secret of `name` (the server was removed); never throws for a missing file. */
export function forgetClientSecret(file: string, name: string): void {
  if (valueAt(readJsonFile(file).doc, [name]) === undefined) return;
  editJsonFile(file, () => [{ path: [name], value: undefined }], { mode: 0o600 });
}
