/**
 * Prints how long loading the Bash rules' shell grammar takes in a fresh process (ms): what a run
 * pays once, the first time a Bash call meets a scoped Bash rule or a path rule.
 */
import { loadBashGrammar } from "../lib/agent/permissions/bash/grammar.ts";

const started = performance.now();
await loadBashGrammar();
console.log((performance.now() - started).toFixed(3));
