/**
 * A scripted Anthropic Messages API server on 127.0.0.1, port 0.
 * Speaks the real wire format: JSON for plain requests, SSE when the request has `stream: true`.
 * Every request is recorded (headers and parsed body) for assertions.
 */
import type { Server } from "bun";

export type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };

/** The Messages API `usage` of a scripted reply; the cache counters are sent only when given. */
export interface ScriptedUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** One scripted step: a model reply, an HTTP error, or a function computing either from the request. */
export type Step =
  | {
      content: Block[];
      stop_reason?: string;
      /** `null` sends a reply without any `usage` (some proxies do). */
      usage?: ScriptedUsage | null;
      /** Streaming only: after the first text block's deltas, hold the stream open until this settles. */
      stall?: Promise<void>;
    }
  | { status: number; error: { type: string; message: string }; headers?: Record<string, string> }
  /** A stream that breaks after message_start: an SSE `error` event (a 5xx mid-stream), a reset connection, or an event whose data is not JSON. */
  | { fault: "error-event" | "reset" | "malformed" }
  | ((req: RecordedRequest) => Step | Promise<Step>);

export interface RecordedRequest {
  headers: Record<string, string>;
  body: any;
  /** The body as it arrived, for byte comparisons. */
  raw: string;
}

export interface ModelServer {
  url: string;
  requests: RecordedRequest[];
  stop(): void;
}

let nextId = 1;
export const text = (t: string): Block => ({ type: "text", text: t });
export const toolUse = (name: string, input: unknown, id = `toolu_${String(nextId++).padStart(4, "0")}`): Block => ({
  type: "tool_use",
  id,
  name,
  input,
});
/** `step` with a scripted `usage`. */
export const withUsage = (step: Step, usage: ScriptedUsage): Step => {
  if (typeof step === "function" || "status" in step || "fault" in step) throw new Error("withUsage takes a reply step");
  return { ...step, usage };
};
/** A reply; `stop_reason` defaults to `tool_use` when a block is a tool_use, else `end_turn`. */
export const reply = (...content: Block[]): Step => ({
  content,
  stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
});

/** The text of the last user message of a request, tool results included (their text, or their JSON). */
export const lastUserText = (req: RecordedRequest): string => {
  const m = req.body.messages.at(-1);
  if (typeof m.content === "string") return m.content;
  return m.content
    .map((b: { text?: string; content?: unknown }) => b.text ?? (typeof b.content === "string" ? b.content : JSON.stringify(b.content)))
    .join("\n");
};

export function startModelServer(script: Step[]): ModelServer {
  const requests: RecordedRequest[] = [];
  let cursor = 0;
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || !url.pathname.endsWith("/v1/messages")) {
        return new Response("not found", { status: 404 });
      }
      const raw = await req.text();
      const body: any = JSON.parse(raw);
      const recorded: RecordedRequest = { headers: Object.fromEntries(req.headers), body, raw };
      requests.push(recorded);
      let step: Step = script[cursor++] ?? reply(text("(script exhausted)"));
      while (typeof step === "function") step = await step(recorded);
      if ("status" in step) {
        return Response.json({ type: "error", error: step.error }, { status: step.status, headers: step.headers });
      }
      if ("fault" in step) return body.stream ? brokenStream(step.fault, body.model) : brokenBody(step.fault);
      const message = {
        id: `msg_${cursor}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: step.content,
        stop_reason: step.stop_reason ?? "end_turn",
        stop_sequence: null,
        ...(step.usage === null ? {} : { usage: step.usage ?? { input_tokens: 10, output_tokens: 5 } }),
      };
      if (!body.stream) return Response.json(message);
      const events = sse(message);
      if (!step.stall) return new Response(events.join(""), { headers: { "content-type": "text/event-stream" } });
      // Everything up to the first content_block_stop goes at once; the rest waits for the stall.
      const cut = events.findIndex((e) => e.startsWith("event: content_block_stop"));
      const stall = step.stall;
      const stream = new ReadableStream<string>({
        async start(controller) {
          controller.enqueue(events.slice(0, cut).join(""));
          await stall;
          controller.enqueue(events.slice(cut).join(""));
          controller.close();
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}

/** A plain (non-streaming) reply broken the same ways: an error object with status 200, a body cut short, JSON that does not parse. */
function brokenBody(fault: "error-event" | "reset" | "malformed"): Response {
  if (fault === "error-event") return Response.json({ type: "error", error: { type: "api_error", message: "Internal server error" } });
  if (fault === "malformed") return new Response('{"id": "msg_broken", "content": [', { headers: { "content-type": "application/json" } });
  const stream = new ReadableStream<string>({
    start(controller) {
      controller.enqueue('{"id": "msg_broken", ');
      controller.error(new Error("connection reset by the scripted model"));
    },
  });
  return new Response(stream, { headers: { "content-type": "application/json" } });
}

/** A stream that starts a message and then breaks the way `fault` says. */
function brokenStream(fault: "error-event" | "reset" | "malformed", model: string): Response {
  const start = `event: message_start\ndata: ${JSON.stringify({ type: "message_start", message: { id: "msg_broken", type: "message", role: "assistant", model, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } } })}\n\n`;
  const stream = new ReadableStream<string>({
    start(controller) {
      controller.enqueue(start);
      if (fault === "error-event") {
        controller.enqueue(`event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "api_error", message: "Internal server error" } })}\n\n`);
        controller.close();
      } else if (fault === "malformed") {
        controller.enqueue('event: content_block_start\ndata: {"type": "content_block_start", "index": 0, \n\n');
        controller.close();
      } else controller.error(new Error("connection reset by the scripted model"));
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream" } });
}

/** The SSE events of `message`, one string each. */
function sse(message: any): string[] {
  const events: [string, unknown][] = [];
  events.push(["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null } }]);
  message.content.forEach((block: Block, index: number) => {
    if (block.type === "text") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      // Two deltas, so clients that stream are seen to join them.
      const half = Math.ceil(block.text.length / 2);
      for (const part of [block.text.slice(0, half), block.text.slice(half)]) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: part } }]);
      }
    } else {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } },
      ]);
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } },
      ]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      ...(message.usage ? { usage: { output_tokens: message.usage.output_tokens } } : {}),
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
