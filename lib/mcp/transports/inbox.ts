/**
 * The incoming side of a transport that is not one byte stream (HTTP: each POST reply and each SSE
 * stream delivers messages): many producers push, the session layer iterates once, in push order.
 * The queue itself is the shared one (shared/queue.ts).
 */
import { AsyncQueue } from "../../shared/queue.ts";
import type { FramedLine } from "./wire/framing.ts";

export class Inbox extends AsyncQueue<FramedLine> {}
