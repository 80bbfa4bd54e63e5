/**
 * The results as markdown: the table, and RESULTS.md, which keeps one section per labelled run
 * ("before", "after", …) so a new run replaces its own section and leaves the others alone.
 */
import type { Row } from "./measure.ts";

const COLUMNS: [keyof Row, string][] = [
  ["figure", "figure"],
  ["value", "measured (median)"],
  ["baseline", "baseline, same run (median)"],
  ["ratio", "ratio"],
  ["target", "target"],
  ["result", "result"],
];

/** A markdown table with one line per row; `|` inside cells is escaped. */
export function renderTable(rows: readonly Row[]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const lines = [
    `| ${COLUMNS.map(([, title]) => title).join(" | ")} |`,
    `|${COLUMNS.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${COLUMNS.map(([key]) => cell(row[key])).join(" | ")} |`),
  ];
  return lines.join("\n");
}

export interface RunSection {
  /** Names the section, e.g. "before"; letters, digits, `-` and `_`. */
  label: string;
  /** ISO date-time of the run. */
  date: string;
  machine: string;
  /** The commit measured, with "+ uncommitted changes" when the tree was dirty. */
  revision: string;
  /** Load averages at the start and the end of the run (see `describeLoad`). */
  load: string;
  table: string;
  /** Free-form markdown after the table: notes, profiles, build comparison. */
  notes: string;
}

/** @throws Error when `label` is not `[A-Za-z0-9_-]+` (it is embedded in HTML comments). */
export function checkLabel(label: string): void {
  if (!/^[A-Za-z0-9_-]+$/.test(label)) throw new Error(`bad --label "${label}" (use letters, digits, - and _)`);
}

const begin = (label: string) => `<!-- bench:${label} -->`;
const end = (label: string) => `<!-- /bench:${label} -->`;

/** One section's markdown, between markers that `mergeSection` recognises. */
export function renderSection(s: RunSection): string {
  return [
    begin(s.label),
    `## Run "${s.label}" (${s.date})`,
    "",
    `Machine: ${s.machine}`,
    `Revision: ${s.revision}`,
    `Load average (1 / 5 / 15 min): ${s.load}`,
    "",
    s.table,
    "",
    s.notes.trim(),
    end(s.label),
  ].join("\n");
}

const HEADER = `# Benchmark results

Written by \`bun run bench\` (bench/run.ts); each labelled run keeps its own section
(\`bun run bench --label after\` replaces only the "after" section). Medians after a warm-up;
every baseline is measured in the same run, interleaved with the figure it is compared to.
`;

/**
 * Returns `existing` (the current RESULTS.md, or "" when absent) with the section for
 * `section.label` replaced, or appended when there is none yet.
 * @throws Error when the label is not `[A-Za-z0-9_-]+` (it is embedded in HTML comments).
 */
export function mergeSection(existing: string, section: RunSection): string {
  checkLabel(section.label);
  const body = renderSection(section);
  const doc = existing.trim() ? existing : HEADER;
  const start = doc.indexOf(begin(section.label));
  const stop = doc.indexOf(end(section.label));
  if (start !== -1 && stop > start) {
    return doc.slice(0, start) + body + doc.slice(stop + end(section.label).length);
  }
  return `${doc.trimEnd()}\n\n${body}\n`;
}
