import { describe, expect, test } from "bun:test";
import { Questions } from "../../../../../lib/cli/repl/prompt/questions.ts";

/** Questions on a fake screen that records what is printed. */
function setup() {
  const printed: string[] = [];
  let closed = false;
  const questions = new Questions({ print: (t) => printed.push(t), redraw: () => undefined, closed: () => closed, interrupted: () => "(interrupted)" });
  /** Answers the question showing once it is `prompt`. */
  const reply = async (prompt: string, line: string | null) => {
    while (questions.current?.prompt !== prompt) await Promise.resolve();
    questions.answer(line);
  };
  return { questions, printed, reply, close: () => (closed = true) };
}

describe("the question row", () => {
  test("a dialog holds the row: a second asker's question waits until the whole first dialog settles", async () => {
    const { questions, printed, reply } = setup();
    const first = questions.dialog(async (ask) => [await ask("a1? "), await ask("a2? ")]);
    const second = questions.dialog(async (ask) => ask("b? ", ["about b"]));
    await reply("a1? ", "x");
    await reply("a2? ", "y");
    await reply("b? ", "z");
    expect(await first).toEqual(["x", "y"]);
    expect(await second).toBe("z");
    expect(printed).toEqual(["a1? x", "a2? y", "about b", "b? z"]);
  });

  test("the pre-filled text is in the editor, and Enter's answer is whatever it holds", async () => {
    const { questions } = setup();
    const asked = questions.dialog((ask) => ask("n? ", [], "42"));
    while (!questions.current) await Promise.resolve();
    expect(questions.current.editor.text).toBe("42");
    questions.answer(questions.current.editor.take());
    expect(await asked).toBe("42");
  });

  test("a signal withdraws the question showing and those after it; a failed dialog does not block the next", async () => {
    const { questions, printed, reply } = setup();
    const controller = new AbortController();
    const withdrawn = questions.dialog(async (ask) => [await ask("q1? "), await ask("q2? ")], controller.signal);
    while (questions.current?.prompt !== "q1? ") await Promise.resolve();
    controller.abort();
    expect(await withdrawn).toEqual([null, null]);
    expect(printed).toEqual(["q1? (interrupted)"]);
    const failing = questions.dialog(async () => {
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    const next = questions.dialog((ask) => ask("after? "));
    await reply("after? ", "ok");
    expect(await next).toBe("ok");
  });

  test("once the terminal is closed, questions resolve null at once", async () => {
    const { questions, close } = setup();
    close();
    expect(await questions.dialog((ask) => ask("late? "))).toBeNull();
  });
});
