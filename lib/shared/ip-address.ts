/**
 * What kind of place an IP address is, for WebFetch's guard against server-side request forgery
 * and the sandbox's proxy (a wildcard allowed domain must not lead into the host's own services):
 * `metadata` (link-local and the cloud metadata ranges: refused unless a rule names the host),
 * `private` (loopback, private ranges, unique-local IPv6, the unspecified address: allowed only
 * by a rule) or `public`. Works on the address as connected to, so every spelling of it counts:
 * the URL parser has already turned decimal, octal and hex IPv4 into dotted form, and an
 * IPv4-mapped or IPv4-compatible IPv6 address is judged as the IPv4 address it carries.
 */
import { isIP } from "node:net";

export type AddressKind = "public" | "private" | "metadata";

/** [first address, prefix length] per range, IPv4 as 32-bit numbers. */
const V4: [number, number, AddressKind][] = [
  [v4("169.254.0.0"), 16, "metadata"],
  [v4("100.64.0.0"), 10, "metadata"],
  [v4("127.0.0.0"), 8, "private"],
  [v4("10.0.0.0"), 8, "private"],
  [v4("172.16.0.0"), 12, "private"],
  [v4("192.168.0.0"), 16, "private"],
  [v4("0.0.0.0"), 8, "private"],
];

/** The kind of `address` (an IPv4 or IPv6 literal, brackets allowed); anything that is not an IP literal is "private" (fail closed). */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return v4Kind(v4(bare));
  if (family !== 6) return "private";
  const groups = v6Groups(bare);
  if (!groups) return "private";
  const top5Zero = groups.slice(0, 5).every((g) => g === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated but still routed by some stacks).
  if (top5Zero && (groups[5] === 0xffff || (groups[5] === 0 && (groups[6] !== 0 || groups[7]! > 1)))) {
    return v4Kind(((groups[6]! << 16) | groups[7]!) >>> 0);
  }
  if (groups.every((g) => g === 0)) return "private"; // ::
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return "private"; // ::1
  if (groups[0] === 0xfd00 && groups[1] === 0x0ec2 && groups.slice(2, 7).every((g) => g === 0) && groups[7] === 0x254) return "metadata"; // fd00:ec2::254
  if ((groups[0]! & 0xffc0) === 0xfe80) return "metadata"; // fe80::/10 link-local
  if ((groups[0]! & 0xfe00) === 0xfc00) return "private"; // fc00::/7 unique local
  return "public";
}

function v4Kind(n: number): AddressKind {
  for (const [base, bits, kind] of V4) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === base) return kind;
  }
  return "public";
}

function v4(dotted: string): number {
  return dotted.split(".").reduce((n, part) => ((n << 8) | Number(part)) >>> 0, 0);
}

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted IPv4 part allowed), or undefined. */
function v6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...new Array(missing).fill(0), ...right];
  return groups.some((g) => Number.isNaN(g) || g < 0 || g > 0xffff) ? undefined : groups;
}

/** True for loopback addresses (127.0.0.0/8, ::1, and IPv4 loopback inside IPv6): plain HTTP stays plain there. */
export function isLoopback(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(bare) === 4) return bare.startsWith("127.");
  const groups = isIP(bare) === 6 ? v6Groups(bare) : undefined;
  if (!groups) return false;
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true;
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff && groups[6]! >> 8 === 127;
}
