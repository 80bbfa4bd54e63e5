/**
 * Servers' `elicitation/create` in the interactive session (MCP 2025-11-25, client/elicitation).
 * Form mode: a header naming the server and its message, then each field of `requestedSchema`
 * asked in turn with the schema's default pre-filled (SEP-1034: an unchanged, accepted form sends
 * the defaults), each answer checked by `fieldError` and asked again with its reason, then a
 * summary and `[a]ccept / [e]dit / [d]ecline / [c]ancel` (Enter accepts). URL mode: the server,
 * its message, the full URL and its host, then `Open this URL? [y]es / [n]o / [c]ancel`; yes opens
 * it in the browser and accepts. Esc or Ctrl-C at any question cancels. A whole form is one
 * dialog of the terminal: other questions (permissions, sampling, another server) wait for it.
 */
import {
  contentErrors,
  type ElicitResult,
  type ElicitValue,
  type FormElicitParams,
  type FormField,
  fieldError,
  formDefaults,
  formFields,
  isUrlMode,
  type UrlElicitParams,
} from "../../mcp/protocol/elicitation.ts";
import { McpError } from "../../mcp/protocol/errors.ts";
import type { ClientFeatures, ServerRequestContext } from "../../mcp/session/features.ts";
import { ErrorCode } from "../../mcp/protocol/protocol.ts";
import { fieldQuestion, readAnswer, showValue } from "./elicitation-fields.ts";
import type { Ask } from "./prompt/questions.ts";
import type { Terminal } from "./prompt/terminal.ts";
import { openBrowser } from "../io/open-browser.ts";
import type { Style } from "../ui/style.ts";

/** What the form needs from the session. */
export interface ElicitationUi {
  /** The session's terminal: `dialog` holds its questions for one form; `print` writes above the prompt. */
  term: Pick<Terminal, "dialog" | "print">;
  /** The user is being asked on `server`'s behalf (the status line says so); returns the call that ends it. */
  waiting(server: string): () => void;
  /** Opens `url` in the user's browser; false when there is none. $BROWSER, else the platform's opener, by default. */
  open?(url: string): boolean;
  style: Style;
}

export type ElicitationFeature = NonNullable<ClientFeatures["elicitation"]>;

/**
 * The session's elicitation feature: form and URL mode, so `initialize` declares `elicitation: {form: {}, url: {}}`.
 * A server's `notifications/elicitation/complete` for a URL the user opened prints one line; one
 * for an id it never sent us, or a second one, prints nothing.
 */
export function elicitationFeature(ui: ElicitationUi): ElicitationFeature {
  // Accepted URL-mode requests, by server and elicitation id (ids are each server's own): the URL opened.
  const opened = new Map<string, string>();
  const key = (server: string, id: string) => `${server}\0${id}`;
  return {
    url: true,
    handle: (params, ctx) =>
      isUrlMode(params) ? openUrl(params, ctx, ui, (url) => opened.set(key(ctx.server, String(params.elicitationId)), url)) : fillForm(params, ctx, ui),
    onComplete: (server, id) => {
      const url = opened.get(key(server, id));
      if (url === undefined) return;
      opened.delete(key(server, id));
      ui.term.print(ui.style.dim(`MCP server "${clean(server)}" says the page you opened is done: ${clean(url)}`));
    },
  };
}

/**
 * The feature as the runtime starts (servers connect before the terminal is up), answered by the
 * UI given to `attach`; a request before that is cancelled, as nobody can answer it yet.
 */
export function deferredElicitation(): { feature: ElicitationFeature; attach(ui: ElicitationUi): void } {
  let live: ElicitationFeature | undefined;
  return {
    feature: {
      url: true,
      handle: (params, ctx) => live?.handle(params, ctx) ?? Promise.resolve(CANCEL),
      onComplete: (server, id) => live?.onComplete?.(server, id),
    },
    attach: (ui) => {
      live = elicitationFeature(ui);
    },
  };
}

const CANCEL: ElicitResult = { action: "cancel" };
const ACCEPT_QUESTION = "[a]ccept / [e]dit / [d]ecline / [c]ancel ";

/**
 * Asks the form; resolves with what the user chose. The content sent is every field with a value,
 * and passes `contentErrors`.
 * @throws McpError -32602 when requestedSchema is not one the specification allows (before anything is shown).
 */
async function fillForm(params: FormElicitParams, ctx: ServerRequestContext, ui: ElicitationUi): Promise<ElicitResult> {
  const fields = formFields(params);
  const values = formDefaults(fields);
  const { style } = ui;
  return ui.term.dialog(async (ask) => {
    const done = ui.waiting(ctx.server);
    try {
      ui.term.print([`MCP server "${clean(ctx.server)}" asks for information (elicitation):`, ...indent(params.message)].join("\n"));
      ui.term.print(style.dim("  (Enter keeps what is filled in; Esc cancels; the last question lets you send or decline)"));
      if (!(await askFields(fields, values, ask, style, true))) return CANCEL;
      for (;;) {
        const summary = fields.map((f, i) => `  ${i + 1}. ${clean(f.label)}: ${summaryValue(f, values[f.key], style)}`);
        const line = await ask(style.yellow(`Send this to "${clean(ctx.server)}"? ${ACCEPT_QUESTION}`), summary);
        if (line === null) return CANCEL;
        const answer = line.trim().toLowerCase();
        if (answer === "" || answer === "a" || answer === "accept") {
          // Each answer was checked as it came; the whole content is checked again before it goes.
          const errors = contentErrors(fields, values);
          if (!errors.length) return { action: "accept", content: { ...values } };
          ui.term.print(errors.map((e) => style.red(`  ${clean(e)}`)).join("\n"));
          const wrong = fields.filter((f) => fieldError(f, values[f.key]) !== undefined);
          if (!(await askFields(wrong, values, ask, style))) return CANCEL;
        } else if (answer === "e" || answer === "edit") {
          const chosen = await chooseFields(fields, ask, style);
          if (chosen === null) return CANCEL;
          if (!(await askFields(chosen, values, ask, style, true))) return CANCEL;
        } else if (answer === "d" || answer === "decline") return { action: "decline" };
        else if (answer === "c" || answer === "cancel") return CANCEL;
      }
    } finally {
      done();
    }
  }, ctx.signal);
}

/**
 * Asks each of `fields` in turn, pre-filled with its value in `values`, which it updates; false
 * when the user cancelled. With `allowMissing` a required field may be left blank for now (so the
 * last question, where one may decline, is reachable without filling it); accepting asks again.
 */
async function askFields(fields: FormField[], values: Record<string, ElicitValue>, ask: Ask, style: Style, allowMissing = false): Promise<boolean> {
  for (const field of fields) {
    const q = fieldQuestion(field, values[field.key]);
    let body = q.body.map(clean);
    let typed = q.initial;
    for (;;) {
      const line = await ask(`  ${clean(q.prompt)}`, body, typed);
      if (line === null) return false;
      const read = readAnswer(field, line);
      const error = "error" in read ? read.error : read.value === undefined && allowMissing ? undefined : fieldError(field, read.value);
      if (error === undefined && !("error" in read)) {
        if (read.value === undefined) delete values[field.key];
        else values[field.key] = read.value;
        break;
      }
      // Asked again with the reason, and with what was typed left in place to be corrected.
      body = [style.red(`  ${clean(error ?? "")}`)];
      typed = line;
    }
  }
  return true;
}

function summaryValue(field: FormField, value: ElicitValue | undefined, style: Style): string {
  if (value !== undefined) return clean(showValue(field, value, "label"));
  return field.required ? style.red("(required)") : style.dim("(none)");
}

/** `Edit which field?` by number (Enter: all of them); null when the user cancelled. */
async function chooseFields(fields: FormField[], ask: Ask, style: Style): Promise<FormField[] | null> {
  for (;;) {
    const line = await ask(style.yellow(`Edit which field? [1-${fields.length}, Enter for all] `));
    if (line === null) return null;
    const t = line.trim();
    if (t === "") return fields;
    const picked = t.split(/[\s,]+/).map((w) => fields[Number(w) - 1]);
    if (picked.every((f) => f !== undefined)) return [...new Set(picked)] as FormField[];
  }
}

/**
 * URL mode: consent before the browser opens anything (the specification forbids opening or
 * fetching the URL without it); yes opens and accepts, no declines. Only http and https URLs are opened.
 * @throws McpError -32602 when `url` is not a URL.
 */
async function openUrl(params: UrlElicitParams, ctx: ServerRequestContext, ui: ElicitationUi, accepted: (url: string) => void): Promise<ElicitResult> {
  if (typeof params.url !== "string" || !URL.canParse(params.url)) throw new McpError(ErrorCode.InvalidParams, "elicitation/create: url is not a valid URL");
  const url = new URL(params.url);
  const { style } = ui;
  return ui.term.dialog(async (ask) => {
    const done = ui.waiting(ctx.server);
    try {
      // The host on a line of its own, in its ASCII (punycode) form, so a look-alike domain shows for what it is.
      ui.term.print(
        [
          `MCP server "${clean(ctx.server)}" asks you to open a URL (elicitation):`,
          ...indent(params.message),
          `  ${clean(url.href)}`,
          `  host: ${style.bold(url.host)}`,
        ].join("\n"),
      );
      for (;;) {
        const line = await ask(style.yellow("Open this URL? [y]es / [n]o / [c]ancel "));
        if (line === null) return CANCEL;
        const answer = line.trim().toLowerCase();
        if (answer === "n" || answer === "no") return { action: "decline" };
        if (answer === "c" || answer === "cancel") return CANCEL;
        if (answer !== "y" && answer !== "yes") continue;
        if (url.protocol !== "https:" && url.protocol !== "http:") {
          ui.term.print(style.red(`  not opened: only http and https URLs are opened, not ${clean(url.protocol)}`));
          return { action: "decline" };
        }
        if (!(ui.open ?? ((u) => openBrowser(u, process.env)))(url.href)) ui.term.print(style.dim("  (no browser to open: open the URL above yourself)"));
        accepted(url.href);
        return { action: "accept" };
      }
    } finally {
      done();
    }
  }, ctx.signal);
}

function indent(message: unknown): string[] {
  return clean(typeof message === "string" ? message : "")
    .split("\n")
    .filter((l, i, all) => l.trim() || (i > 0 && i < all.length - 1))
    .map((l) => `  ${l}`);
}

/** A server's text without escape sequences or control characters, so it cannot redraw the screen or pose as our own prompt. */
function clean(text: string): string {
  return Bun.stripANSI(text).replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}
