/**
 * PDF files for the tests, written by hand: a minimal valid PDF 1.4 with one line of text per page
 * (a catalog, a page tree, one Helvetica font, and a cross-reference table with real offsets),
 * optionally with an /Encrypt entry in its trailer.
 */

/** A PDF with one page per string, each showing that string. */
export function makePdf(pages: string[], opts: { encrypt?: boolean } = {}): Buffer {
  const objs: string[] = [];
  const n = pages.length;
  objs.push(`<< /Type /Catalog /Pages 2 0 R >>`);
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(" ");
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`);
  objs.push(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>`);
  pages.forEach((t, i) => {
    const stream = `BT /F1 24 Tf 72 720 Td (${t}) Tj ET`;
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objs.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R${opts.encrypt ? " /Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>" : ""} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}
