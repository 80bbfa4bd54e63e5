/** What print mode uses of the settings engine, in one module so that it is loaded only when a run has settings. */
export { SettingsFlagError } from "../agent/settings/files.ts";
export { ToolGate } from "../agent/settings/gate.ts";
export { preCompact, prepareSettings, promptSubmit, sessionEnd, sessionStart, stopHook } from "../agent/settings/turn-hooks.ts";
