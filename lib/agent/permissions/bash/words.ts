/**
 * A word of a Bash command as written, and its literal value when it has one, read from
 * tree-sitter-bash's node: quotes and escapes removed as bash removes them. A word that bash would
 * expand (a variable, a substitution, an unquoted glob or brace, an ANSI-C quote) has no value, so
 * that no rule takes it for what it merely looks like.
 */
import type { Node } from "web-tree-sitter";

/** A word as written, and its value when it is a plain literal (no expansion, glob, brace or ANSI-C quote). */
export interface Word {
  raw: string;
  value?: string;
}

/** A word node's text and, when it is a plain literal, its value. */
export function wordOf(node: Node): Word {
  return { raw: node.text, value: literal(node) };
}

function literal(node: Node): string | undefined {
  // Unquoted glob and brace characters expand: the word is not what it says.
  const bare = unquoted(node);
  if (/[*?[]/.test(bare) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(bare)) return undefined;
  return value(node);
}

/** The word with quoted and escaped characters masked, so that only what the shell expands stays. */
function unquoted(node: Node): string {
  if (node.type === "word") return node.text.replace(/\\./gs, "__");
  if (node.type === "concatenation") return node.children.map((c) => (c ? unquoted(c) : "")).join("");
  return "_".repeat(node.text.length);
}

function value(node: Node): string | undefined {
  switch (node.type) {
    case "word":
      return node.text.replace(/\\(.)/gs, "$1").replace(/\\$/, "");
    case "number":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "string":
      if (node.namedChildren.some((c) => c?.type !== "string_content")) return undefined;
      return node.text.slice(1, -1).replace(/\\([$`"\\\n])/g, "$1");
    case "concatenation": {
      let out = "";
      for (const c of node.children) {
        const v = c && value(c);
        if (v === undefined) return undefined;
        out += v;
      }
      return out;
    }
    default:
      return undefined;
  }
}
