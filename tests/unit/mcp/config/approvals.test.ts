/**
 * Approval of a project's `.mcp.json` servers (lib/mcp/config/approvals.ts) on real files: Claude Code's
 * keys where they count, our fingerprints, and what a cloned repository's own files cannot do.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ApprovalPaths, approvalStatus, fingerprint, recordApprovals } from "../../../../lib/mcp/config/approvals.ts";
import { tempDir } from "../../../support/run.ts";

function paths(): ApprovalPaths {
  const project = tempDir("approvals-");
  const config = tempDir("approvals-config-");
  mkdirSync(join(project, ".claude"));
  return {
    project,
    userFile: join(config, ".claude.json"),
    userSettings: join(config, "settings.json"),
    localSettings: join(project, ".claude", "settings.local.json"),
    projectSettings: join(project, ".claude", "settings.json"),
    fingerprints: join(config, "agent-mcp-approvals.json"),
  };
}

const write = (file: string, doc: unknown) => writeFileSync(file, JSON.stringify(doc));
const entries = { fx: { command: "srv", args: ["a"] } };
const status = (p: ApprovalPaths) => approvalStatus(p, entries).get("fx");

describe("approvals", () => {
  test("never answered: pending", () => {
    expect(status(paths())).toEqual({ status: "pending" });
  });

  test("the fingerprint ignores key order but not values", () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2 }] })).toBe(fingerprint({ b: [1, { c: 2 }], a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
  });

  test("answers are recorded in settings.local.json with our fingerprint; a changed entry is pending again", async () => {
    const p = paths();
    await recordApprovals(p, [{ name: "fx", approved: true, entry: entries.fx }]);
    expect(JSON.parse(readFileSync(p.localSettings, "utf8"))).toEqual({ enabledMcpjsonServers: ["fx"], disabledMcpjsonServers: [] });
    expect(status(p)).toEqual({ status: "approved" });
    expect(approvalStatus(p, { fx: { command: "srv", args: ["b"] } }).get("fx")).toEqual({ status: "pending", changed: true });
    await recordApprovals(p, [{ name: "fx", approved: false, entry: entries.fx }]);
    expect(JSON.parse(readFileSync(p.localSettings, "utf8"))).toEqual({ enabledMcpjsonServers: [], disabledMcpjsonServers: ["fx"] });
    expect(status(p)).toEqual({ status: "refused" });
  });

  test("a repository's own settings cannot approve its servers until the user trusted the folder", () => {
    const p = paths();
    write(p.localSettings, { enabledMcpjsonServers: ["fx"] });
    write(p.projectSettings, { enableAllProjectMcpServers: true });
    expect(status(p)).toEqual({ status: "pending" });
    write(p.userFile, { projects: { [p.project]: { hasTrustDialogAccepted: true } } });
    expect(status(p)).toEqual({ status: "approved" });
  });

  test("Claude Code's approval (no fingerprint of ours) counts, and asks to be recorded", () => {
    const p = paths();
    write(p.userSettings, { enabledMcpjsonServers: ["fx"] });
    expect(status(p)).toEqual({ status: "approved", unrecorded: true });
    write(p.userSettings, { enableAllProjectMcpServers: true });
    expect(status(p)).toEqual({ status: "approved" });
  });

  test("a refusal counts from anywhere, the repository's own files included", () => {
    const p = paths();
    write(p.userSettings, { enableAllProjectMcpServers: true });
    write(p.projectSettings, { disabledMcpjsonServers: ["fx"] });
    expect(status(p)).toEqual({ status: "refused" });
  });
});
