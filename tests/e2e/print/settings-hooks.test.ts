/**
 * Command hooks from settings files in -p, with real hook scripts: each event, exit code and JSON
 * field; what the model reads is Claude Code's wording (verified side by side with 2.1.328).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse, withUsage } from "../../support/model-server.ts";
import { isAlive } from "../../support/run.ts";
import { hook, hookScript, place, projectSettings, resultsOf, runPrint, textsOf } from "./settings-support.ts";

const bash = (command: string) => reply(toolUse("Bash", { command }));

describe("PreToolUse", () => {
  test("exit 2 blocks the call and its stderr reaches the model", async () => {
    const p = place();
    const script = hookScript("echo nope-stderr >&2; exit 2");
    projectSettings(p, { hooks: hook("PreToolUse", script, "Bash") });
    const run = await runPrint(p, [bash("touch ran.txt")]);
    expect(existsSync(join(p.dir, "ran.txt"))).toBe(false);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: `PreToolUse:Bash hook error: [${script}]: nope-stderr\n` });
    expect(run.stdout).toBe("done\n");
  });

  test("stdin carries the common fields and the call; CLAUDE_PROJECT_DIR is set", async () => {
    const p = place();
    const out = join(p.dir, "in.json");
    projectSettings(p, { hooks: hook("PreToolUse", hookScript(`cat > ${out}; echo "$CLAUDE_PROJECT_DIR" > ${out}.dir`)) });
    await runPrint(p, [reply(toolUse("Bash", { command: "true" }, "toolu_in"))]);
    const input = JSON.parse(readFileSync(out, "utf8"));
    expect(input).toMatchObject({
      hook_event_name: "PreToolUse",
      cwd: p.dir,
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command: "true" },
      tool_use_id: "toolu_in",
    });
    expect(typeof input.session_id).toBe("string");
    expect(input.transcript_path).toEndWith(`${input.session_id}.jsonl`);
    expect(readFileSync(`${out}.dir`, "utf8").trim()).toBe(p.dir);
  });

  test("updatedInput rewrites the command; additionalContext follows the result", async () => {
    const p = place();
    const json = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: { command: "echo rewritten" },
        additionalContext: "ctx here",
      },
    };
    projectSettings(p, { hooks: hook("PreToolUse", hookScript(`echo '${JSON.stringify(json)}'`), "Bash") });
    const run = await runPrint(p, [bash("echo original")]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "rewritten" });
    expect(textsOf(run, 1)).toEqual(["PreToolUse:Bash hook additional context: ctx here"]);
  });

  test("permissionDecision deny carries its reason; the deprecated decision block does the same", async () => {
    const p = place();
    const deny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "policy says no" } };
    projectSettings(p, {
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: hookScript(`echo '${JSON.stringify(deny)}'`) }] },
          { matcher: "Write", hooks: [{ type: "command", command: hookScript(`echo '{"decision":"block","reason":"old style"}'`) }] },
        ],
      },
    });
    const run = await runPrint(p, [bash("touch a"), reply(toolUse("Write", { file_path: join(p.dir, "w.txt"), content: "x" }))]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ is_error: true, content: "PreToolUse:Bash hook error: policy says no" });
    expect(resultsOf(run, 1)[0]).toMatchObject({ is_error: true, content: "PreToolUse:Write hook error: old style" });
    expect(existsSync(join(p.dir, "w.txt"))).toBe(false);
  });

  test("a hook's allow never beats a deny rule; its ask is refused in -p with its reason", async () => {
    const p = place();
    const allow = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } };
    const ask = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "ask a human" } };
    projectSettings(p, {
      permissions: { deny: ["Bash(touch:*)"] },
      hooks: {
        PreToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: hookScript(`echo '${JSON.stringify(allow)}'`) }] },
          { matcher: "Read", hooks: [{ type: "command", command: hookScript(`echo '${JSON.stringify(ask)}'`) }] },
        ],
      },
    });
    const run = await runPrint(p, [bash("touch a"), reply(toolUse("Read", { file_path: join(p.dir, ".claude/settings.json") }))]);
    expect(existsSync(join(p.dir, "a"))).toBe(false);
    expect(resultsOf(run, 0)[0]!.is_error).toBe(true);
    expect(resultsOf(run, 1)[0]).toMatchObject({ is_error: true, content: "ask a human" });
  });

  test("a regex matcher picks one server's MCP tools; another exit code is a non-blocking error", async () => {
    const p = place();
    projectSettings(p, { hooks: hook("PreToolUse", hookScript("echo oops >&2; exit 3"), "mcp__.*|Ba.h") });
    const run = await runPrint(p, [bash("echo ran")]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "ran" });
    expect(run.stderr).toContain("failed with exit code 3: oops");
  });

  test("identical commands run once, matching hooks run in parallel", async () => {
    const p = place();
    const log = join(p.dir, "log");
    const slow = hookScript(`echo start >> ${log}; sleep 1; echo end >> ${log}`);
    const other = hookScript(`echo other >> ${log}`);
    projectSettings(p, {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: "command", command: slow },
              { type: "command", command: slow },
              { type: "command", command: other },
            ],
          },
        ],
      },
    });
    await runPrint(p, [bash("true")]);
    const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
    // Once each; "other" finished while the slow one slept, so they overlapped.
    expect([...lines].sort()).toEqual(["end", "other", "start"]);
    expect(lines.indexOf("other")).toBeLessThan(lines.indexOf("end"));
  });

  test("a hook past its timeout is killed with its children, and the call goes on", async () => {
    const p = place();
    const pid = join(p.dir, "child.pid");
    projectSettings(p, { hooks: hook("PreToolUse", hookScript(`sleep 100 & echo $! > ${pid}; wait`), "Bash", { timeout: 1 }) });
    const run = await runPrint(p, [bash("echo after")]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "after" });
    expect(isAlive(Number(readFileSync(pid, "utf8")))).toBe(false);
    expect(run.stderr).toContain("timed out");
  });

  test("garbage on stdout is ignored with one line; hook output never reaches stdout", async () => {
    const p = place();
    projectSettings(p, { hooks: hook("PreToolUse", hookScript("echo '{not json'; echo chatter")) });
    const run = await runPrint(p, [bash("echo fine")]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "fine" });
    expect(run.stdout).toBe("done\n");
    expect(run.stderr).toContain("not valid JSON");
  });

  test("continue:false ends the run after this step: no further model call, stopReason on stderr, exit 0", async () => {
    const p = place();
    projectSettings(p, { hooks: hook("PreToolUse", hookScript(`echo '{"continue":false,"stopReason":"halt now","systemMessage":"for you"}'`)) });
    const run = await runPrint(p, [bash("touch x")]);
    expect(run.requests).toHaveLength(1);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Operation stopped by hook: halt now");
    expect(run.stderr).toContain("for you");
  });
});

describe("PostToolUse and PostToolUseFailure", () => {
  test("exit 2's stderr and a decision block reach the model after the result, in Claude Code's words", async () => {
    const p = place();
    const two = hookScript("echo post-stderr >&2; exit 2");
    const json = { decision: "block", reason: "post reason", hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "post ctx" } };
    const block = hookScript(`echo '${JSON.stringify(json)}'`);
    projectSettings(p, {
      hooks: {
        PostToolUse: [
          { matcher: "Bash", hooks: [{ type: "command", command: two }] },
          { matcher: "Read", hooks: [{ type: "command", command: block }] },
        ],
      },
    });
    const run = await runPrint(p, [bash("echo hi"), reply(toolUse("Read", { file_path: join(p.dir, ".claude/settings.json") }))]);
    expect(resultsOf(run, 0)[0]).toMatchObject({ content: "hi" });
    expect(textsOf(run, 1)).toEqual([`PostToolUse:Bash hook blocking error from command: "${two}": [${two}]: post-stderr\n`]);
    expect(textsOf(run, 2)).toEqual([
      `PostToolUse:Read hook blocking error from command: "${block}": post reason`,
      "PostToolUse:Read hook additional context: post ctx",
    ]);
  });

  test("tool_response reaches PostToolUse; a failed call fires PostToolUseFailure with its error", async () => {
    const p = place();
    const ok = join(p.dir, "ok.json");
    const bad = join(p.dir, "bad.json");
    projectSettings(p, { hooks: { ...hook("PostToolUse", hookScript(`cat > ${ok}`)), ...hook("PostToolUseFailure", hookScript(`cat > ${bad}`)) } });
    await runPrint(p, [bash("echo out"), reply(toolUse("Read", { file_path: join(p.dir, "missing.txt") }))]);
    expect(JSON.parse(readFileSync(ok, "utf8"))).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_response: "out" });
    expect(JSON.parse(readFileSync(bad, "utf8"))).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Read" });
    expect(JSON.parse(readFileSync(bad, "utf8")).error).toContain("missing.txt");
  });
});

describe("UserPromptSubmit, SessionStart, Stop, SessionEnd", () => {
  test("UserPromptSubmit exit 2 drops the prompt: no model call, the message on stderr, exit 0 (as Claude Code)", async () => {
    const p = place();
    const script = hookScript("echo blocked-by-hook >&2; exit 2");
    projectSettings(p, { hooks: hook("UserPromptSubmit", script) });
    const run = await runPrint(p, [], [], { prompt: "hello" });
    expect(run.requests).toHaveLength(0);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`UserPromptSubmit operation blocked by hook:\n[${script}]: blocked-by-hook\n\n\nOriginal prompt: hello\n`);
  });

  test("UserPromptSubmit decision block and continue:false end the run the same way", async () => {
    const p = place();
    projectSettings(p, { hooks: hook("UserPromptSubmit", hookScript(`echo '{"continue":false,"stopReason":"stopped here"}'`)) });
    const run = await runPrint(p, [], [], { prompt: "hello" });
    expect(run.requests).toHaveLength(0);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("Operation stopped by hook: stopped here\n");
  });

  test("UserPromptSubmit and SessionStart context go to the model with the prompt; plain stdout counts", async () => {
    const p = place();
    const ctx = { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "ups ctx" } };
    const input = join(p.dir, "start.json");
    projectSettings(p, {
      hooks: {
        ...hook("UserPromptSubmit", hookScript(`echo '${JSON.stringify(ctx)}'`)),
        ...hook("SessionStart", hookScript(`cat > ${input}; echo plain start text`), "startup"),
      },
    });
    const run = await runPrint(p, [], [], { prompt: "hello" });
    expect(textsOf(run, 0)).toEqual(["SessionStart:startup hook success: plain start text", "hello", "UserPromptSubmit hook additional context: ups ctx"]);
    expect(JSON.parse(readFileSync(input, "utf8"))).toMatchObject({ hook_event_name: "SessionStart", source: "startup" });
  });

  test("a Stop hook's block gives the model another turn with Claude Code's feedback text, once stop_hook_active says so", async () => {
    const p = place();
    const seen = join(p.dir, "stop.json");
    projectSettings(p, {
      hooks: hook(
        "Stop",
        hookScript(`cat >> ${seen}; echo >> ${seen}; grep -q '"stop_hook_active":true' ${seen} && exit 0; echo '{"decision":"block","reason":"keep going"}'`),
      ),
    });
    const run = await runPrint(p, [reply(text("first"))]);
    expect(run.requests).toHaveLength(2);
    expect(run.requests[1]!.body.messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: "Stop hook feedback:\nkeep going", cache_control: { type: "ephemeral" } }],
    });
    expect(run.stdout).toBe("done\n");
  });

  test("a Stop hook's block counts toward --max-turns", async () => {
    const p = place();
    projectSettings(p, { hooks: hook("Stop", hookScript("echo again >&2; exit 2")) });
    const run = await runPrint(p, [reply(text("first")), reply(text("second"))], ["--max-turns", "2"]);
    expect(run.requests).toHaveLength(2);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--max-turns 2");
  });

  test("SessionEnd runs at the end with reason other", async () => {
    const p = place();
    const out = join(p.dir, "end.json");
    projectSettings(p, { hooks: hook("SessionEnd", hookScript(`cat > ${out}`)) });
    await runPrint(p, []);
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other" });
  });
});

describe("PreCompact", () => {
  test("fires with trigger auto when an automatic compaction starts, and not before", async () => {
    const p = place();
    const out = join(p.dir, "compact.json");
    projectSettings(p, { hooks: hook("PreCompact", hookScript(`cat >> ${out}`), "auto") });
    const full = { input_tokens: 100_000, output_tokens: 10, cache_read_input_tokens: 800_000 };
    const run = await runPrint(p, [
      withUsage(reply(toolUse("Bash", { command: "echo one" })), { input_tokens: 1000, output_tokens: 10 }),
      withUsage(reply(toolUse("Bash", { command: "echo two" })), full),
      reply(text("SUMMARY: two commands ran")),
    ]);
    expect(run.stderr).toContain("Compacted the conversation (auto");
    expect(JSON.parse(readFileSync(out, "utf8"))).toMatchObject({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" });
  });
});
