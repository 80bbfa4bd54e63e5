/**
 * File types for Grep's `type` filter in the fallback search: a subset of ripgrep's
 * built-in type list (`rg --type-list`), with the same names and globs.
 */
export const FILE_TYPES: Record<string, string[]> = {
  c: ["*.c", "*.h"],
  cpp: ["*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl"],
  cs: ["*.cs"],
  css: ["*.css", "*.scss"],
  go: ["*.go"],
  html: ["*.html", "*.htm", "*.xhtml"],
  java: ["*.java", "*.jsp"],
  js: ["*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"],
  json: ["*.json", "*.jsonl"],
  kotlin: ["*.kt", "*.kts"],
  lua: ["*.lua"],
  md: ["*.md", "*.markdown", "*.mdx"],
  php: ["*.php"],
  py: ["*.py", "*.pyi"],
  rb: ["*.rb", "Gemfile", "*.gemspec", "Rakefile"],
  rust: ["*.rs"],
  sh: ["*.sh", "*.bash", "*.zsh", ".bashrc", ".zshrc", ".profile"],
  sql: ["*.sql"],
  swift: ["*.swift"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.ts", "*.tsx", "*.mts", "*.cts"],
  txt: ["*.txt"],
  xml: ["*.xml", "*.xsd", "*.xsl"],
  yaml: ["*.yaml", "*.yml"],
};

/** Aliases ripgrep also accepts. */
const ALIASES: Record<string, string> = { typescript: "ts", javascript: "js", python: "py", ruby: "rb", markdown: "md", yml: "yaml" };

/** The basename globs of file type `name` (ripgrep naming), or undefined when unknown. */
export function fileTypeGlobs(name: string): string[] | undefined {
  return FILE_TYPES[ALIASES[name] ?? name];
}
