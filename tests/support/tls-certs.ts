/**
 * Test-only TLS certificates, made with `openssl` when a test asks (nothing is committed): one
 * that expired in 2020 and one self-signed that nobody trusts, both for the address 127.0.0.1 (and
 * one more address when asked), never for a name (so `https://localhost` is one they do not cover).
 * `makeTestCerts()` is undefined when openssl is missing; the tests that need it skip with a note.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./run.ts";

export interface CertPair {
  cert: string;
  key: string;
}

export interface TestCerts {
  expired: CertPair;
  selfSigned: CertPair;
}

const caConfig = (san: string) => `[ ca ]
default_ca = test
[ test ]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = any
[ any ]
commonName = supplied
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = 127.0.0.1
[ san ]
${san}
`;

export const OPENSSL = Bun.which("openssl");

function openssl(dir: string, args: string[]): void {
  const r = Bun.spawnSync([OPENSSL!, ...args], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr.toString()}`);
}

/**
 * Generates both pairs in a fresh temporary folder; undefined without openssl.
 * @param alsoFor another IP address both certificates cover (e.g. this machine's non-loopback one).
 */
export function makeTestCerts(alsoFor?: string): TestCerts | undefined {
  if (!OPENSSL) return undefined;
  const dir = tempDir("agent-tls-");
  const san = `subjectAltName = IP:127.0.0.1${alsoFor ? `,IP:${alsoFor}` : ""}`;
  writeFileSync(join(dir, "ca.cnf"), caConfig(san));
  writeFileSync(join(dir, "san.cnf"), `${san}\n`);
  writeFileSync(join(dir, "index.txt"), "");
  writeFileSync(join(dir, "serial"), "01\n");
  const newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  openssl(dir, ["req", "-x509", ...newKey, "-keyout", "self.key", "-out", "self.pem", "-days", "3650", "-config", "ca.cnf", "-extensions", "san"]);
  // `openssl ca` is the one command of OpenSSL 3.0 that takes explicit dates, hence the tiny CA folder.
  openssl(dir, ["req", "-new", ...newKey, "-keyout", "expired.key", "-out", "expired.csr", "-config", "ca.cnf"]);
  openssl(dir, [
    "ca",
    "-batch",
    "-config",
    "ca.cnf",
    "-selfsign",
    "-keyfile",
    "expired.key",
    "-in",
    "expired.csr",
    "-out",
    "expired.pem",
    "-startdate",
    "20200101000000Z",
    "-enddate",
    "20200102000000Z",
    "-extfile",
    "san.cnf",
    "-notext",
  ]);
  const pair = (name: string) => ({ cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) });
  return { expired: pair("expired"), selfSigned: pair("self") };
}
