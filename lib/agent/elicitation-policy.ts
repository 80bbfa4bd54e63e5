/**
 * A headless answer to servers' `elicitation/create` (MCP 2025-11-25, client/elicitation, form
 * mode): `--elicitation accept-defaults|decline|cancel` in runs with nobody to ask. Form mode only:
 * a URL-mode request is refused before it gets here (features.ts), since opening a link needs a person.
 */
import { fieldError, formDefaults, formFields, type ElicitParams, type ElicitResult } from "../mcp/protocol/elicitation.ts";
import type { ClientFeatures } from "../mcp/session/features.ts";

/** The values `--elicitation` takes. */
export const ELICITATION_POLICIES = ["accept-defaults", "decline", "cancel"] as const;
export type ElicitationPolicy = (typeof ELICITATION_POLICIES)[number];

/** True when `value` is one of ELICITATION_POLICIES. */
export function isElicitationPolicy(value: string): value is ElicitationPolicy {
  return (ELICITATION_POLICIES as readonly string[]).includes(value);
}

/**
 * The elicitation feature for a policy: declares `{form: {}}` and answers each request at once,
 * with one line through `log` naming the server, its message and the answer:
 * - `accept-defaults`: accepts with the schema's defaults (SEP-1034's "accepted unchanged");
 *   when they do not make a valid answer (a required field without a default) it declines and says why;
 * - `decline`, `cancel`: that action, no content.
 * @throws McpError -32602 (from formFields) when requestedSchema is not a valid form: the server gets that error.
 */
export function elicitationPolicy(policy: ElicitationPolicy, log: (line: string) => void): NonNullable<ClientFeatures["elicitation"]> {
  return {
    url: false,
    handle: async (params: ElicitParams, { server }): Promise<ElicitResult> => {
      const heading = `MCP server "${server}" asked for input: ${JSON.stringify(oneLine(params.message))}`;
      if (policy !== "accept-defaults") {
        log(`${heading} — ${policy === "decline" ? "declined" : "cancelled"} (--elicitation ${policy})`);
        return { action: policy };
      }
      const fields = formFields(params as Extract<ElicitParams, { mode?: "form" }>);
      const content = formDefaults(fields);
      // Named by key too: a title like "String" means nothing in a log line.
      const problems = fields.flatMap((f) => {
        const error = fieldError(f, content[f.key]);
        return error === undefined ? [] : [f.label === f.key ? error : `${error} (field "${f.key}")`];
      });
      if (problems.length) {
        log(`${heading} — declined (--elicitation accept-defaults: the defaults are not a valid answer: ${problems.join("; ")})`);
        return { action: "decline" };
      }
      const sent = Object.keys(content);
      log(`${heading} — accepted with ${sent.length ? `its defaults (${sent.join(", ")})` : "no fields"} (--elicitation accept-defaults)`);
      return { action: "accept", content };
    },
  };
}

/** A server's text on one line of at most `max` characters: no control characters, no terminal escapes. */
function oneLine(text: unknown, max = 200): string {
  const flat = Bun.stripANSI(String(text ?? ""))
    .replace(/[\x00-\x1f\x7f-\x9f]+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
