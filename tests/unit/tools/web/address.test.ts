/**
 * address.ts: every spelling of loopback, private and metadata addresses is judged as what it is.
 */
import { expect, test } from "bun:test";
import { addressKind, isLoopback } from "../../../../lib/shared/ip-address.ts";

test.each([
  ["127.0.0.1", "private"],
  ["127.255.0.9", "private"],
  ["10.1.2.3", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["0.0.0.0", "private"],
  ["::1", "private"],
  ["[::1]", "private"],
  ["::", "private"],
  ["fc00::1", "private"],
  ["fdff::1", "private"],
  ["::ffff:127.0.0.1", "private"],
  ["::ffff:7f00:1", "private"],
  ["::ffff:10.0.0.1", "private"],
  ["169.254.169.254", "metadata"],
  ["100.64.0.1", "metadata"],
  ["100.127.255.255", "metadata"],
  ["fd00:ec2::254", "metadata"],
  ["fe80::1", "metadata"],
  ["::ffff:a9fe:a9fe", "metadata"],
  ["8.8.8.8", "public"],
  ["172.32.0.1", "public"],
  ["100.128.0.1", "public"],
  ["2001:4860:4860::8888", "public"],
  ["not-an-address", "private"],
])("%s is %s", (address, kind) => {
  expect(addressKind(address)).toBe(kind as never);
});

test("the URL parser's spellings of 127.0.0.1 (decimal, hex, octal) reach the guard as dotted loopback", () => {
  for (const url of ["http://2130706433/", "http://0x7f.0.0.1/", "http://0177.0.0.1/", "http://127.1/"]) {
    expect(addressKind(new URL(url).hostname)).toBe("private");
  }
});

test("loopback keeps plain http; other private addresses do not", () => {
  expect(isLoopback("127.0.0.1")).toBe(true);
  expect(isLoopback("::1")).toBe(true);
  expect(isLoopback("::ffff:127.0.0.1")).toBe(true);
  expect(isLoopback("10.0.0.1")).toBe(false);
  expect(isLoopback("93.184.216.34")).toBe(false);
});
