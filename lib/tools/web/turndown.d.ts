/**
 * The part of turndown's API that html.ts uses (the package ships no types of its own).
 */
declare module "turndown" {
  interface Options {
    headingStyle?: "setext" | "atx";
    bulletListMarker?: "-" | "+" | "*";
    codeBlockStyle?: "indented" | "fenced";
  }
  export default class TurndownService {
    constructor(options?: Options);
    remove(filter: string | string[]): this;
    turndown(html: string): string;
  }
}
