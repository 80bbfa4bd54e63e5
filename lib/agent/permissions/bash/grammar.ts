/**
 * The shell grammar behind Bash permission rules: tree-sitter-bash (the grammar editors and other
 * agents parse shell with) run by web-tree-sitter, both WebAssembly. The two .wasm files are
 * embedded in the single executable (`with { type: "file" }`) and read only when a Bash rule is
 * first evaluated: a run without Bash rules never loads them.
 */
import type { Parser as TsParser } from "web-tree-sitter";
// @ts-expect-error: Bun gives a .wasm imported as a file its path (inside the executable once compiled).
import runtimeWasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
// @ts-expect-error: as above.
import bashWasm from "tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };

let parser: TsParser | undefined;
let loading: Promise<TsParser> | undefined;
/** Milliseconds the load took, for the benchmark. */
export let grammarLoadMs: number | undefined;

/** Loads the grammar once; later calls return the same parser. */
export function loadBashGrammar(): Promise<TsParser> {
  loading ??= (async () => {
    const started = performance.now();
    const { Parser, Language } = await import("web-tree-sitter");
    await Parser.init({ wasmBinary: await Bun.file(runtimeWasm as string).bytes() } as never);
    const language = await Language.load(await Bun.file(bashWasm as string).bytes());
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
    grammarLoadMs = performance.now() - started;
    return p;
  })();
  return loading;
}

/** The parser once loaded, else undefined (callers then fail closed). */
export function bashGrammar(): TsParser | undefined {
  return parser;
}
