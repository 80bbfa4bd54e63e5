/**
 * Figure: WebFetch's HTML to Markdown (lib/tools/web/html.ts, turndown), in milliseconds per MB of
 * HTML, on a page made from this repository's README rendered by marked and repeated to about
 * 2 MB (headings, tables, lists, code, links: what documentation pages hold), against reading the
 * same HTML into a DOM-free string scan (a regex pass over it) as the floor.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext, FigureResult } from "./figure.ts";
import { median, ms, naRow, ratio } from "./measure.ts";

const RUNS = 5;
const FIGURE = "WebFetch HTML → Markdown (turndown), per MB of HTML";

export async function webFigure(ctx: BenchContext): Promise<FigureResult> {
  try {
    const { marked } = await import("marked");
    const { htmlToMarkdown } = await import("../lib/tools/web/html.ts");
    const body = await marked.parse(readFileSync(join(import.meta.dir, "..", "README.md"), "utf8"));
    let html = "";
    while (html.length < 2_000_000) html += body;
    html = `<html><head><title>README</title><style>body{}</style></head><body>${html}</body></html>`;
    const mb = Buffer.byteLength(html) / 1e6;
    ctx.log(`web: ${RUNS} conversions of ${mb.toFixed(2)} MB of HTML`);
    await htmlToMarkdown("<p>warm up</p>");
    const convert: number[] = [];
    const scan: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await htmlToMarkdown(html);
      convert.push((performance.now() - t) / mb);
      t = performance.now();
      html.replace(/<[^>]+>/g, "").length;
      scan.push((performance.now() - t) / mb);
    }
    const value = median(convert);
    const floor = median(scan);
    return {
      rows: [
        {
          figure: FIGURE,
          value: ms(value),
          baseline: `${ms(floor)} (a regex pass over the tags)`,
          ratio: ratio(value, floor),
          target: "report",
          result: "reported",
        },
      ],
      notes: [],
    };
  } catch (err) {
    return { rows: [naRow(FIGURE, "report", (err as Error).message)], notes: [] };
  }
}
