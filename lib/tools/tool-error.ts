/**
 * Thrown by tools for failures the model should read as-is (no stack, no prefix): a missing file,
 * a bad argument. Anything else a tool throws is a bug in it (the loop reports it as one).
 * In a file of its own so that what tools share (tool-state, file-snapshots) need not import the Tool interface.
 */
export class ToolError extends Error {}
