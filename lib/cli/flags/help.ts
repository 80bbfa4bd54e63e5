/**
 * The `--help` text: every flag of the main command, in one place. Loaded only when `--help` asks for it.
 */
export const USAGE = `Usage: agent [options] [prompt]
       agent -p "prompt"               one prompt, print the final answer, exit
       agent                           interactive session (on a terminal)
       agent mcp <add|add-json|remove> …  manage MCP servers (local, project or user scope)
       agent mcp <list|get|tools|prompts|resources|call|prompt|read|tasks|task|skills|skill> …   inspect MCP servers, no model needed
       agent mcp <login|logout|approve> …  log in to a remote server, forget its tokens, approve a project's .mcp.json servers
       agent mcp-init [FIXTURE]        print the MCP initialize request for a grader fixture

Options:
  -p, --print                   print mode: answer the prompt (argument or stdin) and exit
  --model <id>                  model (default: $ANTHROPIC_MODEL, else the settings' model, else claude-sonnet-4-6)
  --output-format <fmt>         text (default), json or stream-json (print mode)
  --max-turns <n>               stop after n model calls (exit 1)
  --mcp-config <file|json>      extra MCP servers (repeatable)
  --settings <file|json>        settings over the project's and user's (Claude Code's settings.json format)
  --setting-sources <list>      which settings files to read: user, project, local (comma separated; "" for none)
  --strict-mcp-config           use only --mcp-config servers, not .mcp.json
  --allowedTools <names>        tools that need no permission (comma or space separated)
  --disallowedTools <names>     tools removed from the model's list; mcp__<server> names a whole server
  --tools <names>               the built-in tools offered ("" none, "default" all; comma or space separated)
  --agents <json|file>          subagent types for the Agent tool ({"name": {"description", "prompt", "tools", "model"}}; with -p also a file)
  --system-prompt <text>        replace the system prompt
  --append-system-prompt <text> append to the system prompt
  --dangerously-skip-permissions  never ask before running tools (interactive)
  --no-sampling                 refuse MCP servers' sampling/createMessage requests
  --elicitation <policy>        answer MCP servers' input forms with nobody to ask: accept-defaults, decline or cancel
  -c, --continue                continue the newest conversation of this directory
  -r, --resume [id]             resume a conversation by id (without one, on a terminal: pick one)
  --session-id <uuid>           the id of the new conversation
  --fork-session                with --continue/--resume: go on in a new session, leaving the old one as it was
  --no-session-persistence      save nothing of this conversation
  --rewind-files <message id>   with -p --resume <id>: put the files the agent changed back as they were at that user message
  --rewind-overwrite            with --rewind-files: go on even over files changed since by someone other than the agent
  --no-cache                    send no prompt-caching breakpoints (also DISABLE_PROMPT_CACHING=1)
  --input-format <fmt>          text (default) or stream-json: JSON messages on stdin (the Agent SDK's host protocol)
  --permission-mode <mode>      default, acceptEdits, bypassPermissions, dontAsk or plan (read and plan only; print mode runs every tool without it)
  --permission-prompt-tool stdio  ask the host program (stream-json input) before tools that need permission
  --include-partial-messages    stream-json: also the model's stream events as they arrive
  --json-schema <json|file>     end with an answer matching this JSON Schema (the result's structured_output)
  --verbose                     server stderr and start-up progress on stderr
  --debug                       also the JSON-RPC traffic on stderr
  -v, --version                 print the version
  -h, --help                    print this help

In the session Shift+Tab cycles default, accept edits and plan mode; the model keeps a task list
(TaskCreate…; in -p with CLAUDE_CODE_ENABLE_TODO_TOOLS=1, TodoWrite with CLAUDE_CODE_ENABLE_TASKS=0)
and may ask you multiple-choice questions (AskUserQuestion; not in -p).
In -p the opt-in tools join only when asked: AGENT_BACKGROUND_TASKS=1 (background Bash, Monitor,
TaskStop), AGENT_SUBAGENTS=1 or --agents (Agent), AGENT_WEB_TOOLS=1 (WebFetch, WebSearch), or a
flag naming them (--tools, --allowedTools). CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=1 keeps
checkpoints for --rewind-files. The OS sandbox is the settings' "sandbox": {"enabled": true}.`;
