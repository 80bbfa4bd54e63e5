/**
 * What the fault suite records for bench/faults.ts's table: with FAULT_REPORT=<file>, each load
 * run appends one JSON line (its name, peak RSS, processes left); without it, nothing.
 */
import { appendFileSync } from "node:fs";

export interface LoadRecord {
  run: string;
  peakRssMb: number;
  orphans: number;
  ms: number;
}

export function reportLoad(record: LoadRecord): void {
  const file = process.env.FAULT_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(record)}\n`);
}
