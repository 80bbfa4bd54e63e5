/**
 * The era negotiation's decisions (MCP 2026-07-28, basic/versioning §Backward Compatibility) with
 * scripted steps: which requests go out, in which order, and what is concluded.
 */
import { describe, expect, test } from "bun:test";
import { McpError, RequestTimeoutError } from "../../../../lib/mcp/protocol/errors.ts";
import { negotiate, type NegotiationSteps } from "../../../../lib/mcp/session/negotiate.ts";

type Script = { initialize?: () => unknown; discover?: (version: string) => unknown };

function steps(script: Script) {
  const calls: string[] = [];
  const s: NegotiationSteps = {
    initialize: async () => {
      calls.push("initialize");
      return script.initialize!();
    },
    discover: async (version, ms) => {
      calls.push(`discover ${version} ${ms}`);
      return script.discover!(version);
    },
    useEra: (era) => {
      calls.push(`era ${era}`);
    },
    alive: () => true,
    note: () => {},
  };
  return { s, calls };
}
const refuse = (supported: string[]) => () => {
  throw new McpError(-32022, "Unsupported protocol version", { supported, requested: "2025-11-25" });
};
const fail =
  (code = -32601) =>
  () => {
    throw new McpError(code, "nope");
  };
const found = () => ({ capabilities: { tools: {} } });
const plan = { discoverFirst: false, probeTimeoutMs: 1000 };

describe("initialize first", () => {
  test("a 2025 answer: legacy, no probe", async () => {
    const { s, calls } = steps({ initialize: () => ({ protocolVersion: "2025-11-25" }) });
    expect((await negotiate(plan, s)).era).toBe("legacy");
    expect(calls).toEqual(["initialize"]);
  });

  test("-32022 naming 2026-07-28: modern via server/discover", async () => {
    const { s, calls } = steps({ initialize: refuse(["2026-07-28"]), discover: found });
    expect(await negotiate(plan, s)).toMatchObject({ era: "modern", version: "2026-07-28" });
    expect(calls).toEqual(["initialize", "era modern", "discover 2026-07-28 1000"]);
  });

  test("-32022 naming nothing we speak: one line with both lists", async () => {
    const { s } = steps({ initialize: refuse(["2027-01-01"]) });
    await expect(negotiate(plan, s)).rejects.toThrow("speaks 2027-01-01 only; this client speaks 2025-11-25 and 2026-07-28");
  });

  test("another error: one probe; its failure gives back the initialize error", async () => {
    const { s, calls } = steps({ initialize: fail(-32600), discover: fail() });
    await expect(negotiate(plan, s)).rejects.toThrow("MCP error -32600");
    expect(calls).toEqual(["initialize", "era modern", "discover 2026-07-28 1000", "era legacy"]);
  });

  test("a timeout: no probe", async () => {
    const { s, calls } = steps({
      initialize: () => {
        throw new RequestTimeoutError("initialize", 10, "x");
      },
    });
    await expect(negotiate(plan, s)).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(calls).toEqual(["initialize"]);
  });

  test("MCP_PROTOCOL_NEGOTIATION=legacy (probe: false): an initialize error is final", async () => {
    const { s, calls } = steps({ initialize: fail() });
    await expect(negotiate({ ...plan, probe: false }, s)).rejects.toThrow("MCP error -32601");
    expect(calls).toEqual(["initialize"]);
  });
});

describe("discovery first", () => {
  const first = { discoverFirst: true, probeTimeoutMs: 500 };

  test("a result: modern, no initialize", async () => {
    const { s, calls } = steps({ discover: found });
    expect((await negotiate(first, s)).era).toBe("modern");
    expect(calls).toEqual(["era modern", "discover 2026-07-28 500"]);
  });

  test("any other error or a timeout: initialize, back on the 2025 transport", async () => {
    for (const discover of [
      fail(),
      () => {
        throw new RequestTimeoutError("server/discover", 500, "x");
      },
    ]) {
      const { s, calls } = steps({ discover, initialize: () => ({ protocolVersion: "2025-11-25" }) });
      expect((await negotiate(first, s)).era).toBe("legacy");
      expect(calls).toEqual(["era modern", "discover 2026-07-28 500", "era legacy", "initialize"]);
    }
  });

  test("-32022 listing only 2025-11-25: initialize", async () => {
    const { s, calls } = steps({ discover: refuse(["2025-11-25"]), initialize: () => ({ protocolVersion: "2025-11-25" }) });
    expect((await negotiate(first, s)).era).toBe("legacy");
    expect(calls.at(-1)).toBe("initialize");
  });
});
