import { createHash, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';

/**
 * A certificate authority of this installation, made once and kept in DATA_DIR/tls, and the
 * server certificate it signs for the names and LAN addresses the server answers on. Phones
 * install the CA once (GET /ca.crt); the server certificate is re-issued on its own.
 *
 * The CA is name-constrained to loopback, private-network addresses and local names, so even a
 * leaked CA key could not impersonate a public website on the phones that trust it.
 */

const DAY = 24 * 60 * 60_000;
export const CA_VALIDITY_DAYS = 3650;
/** Within Apple's 825-day limit for server certificates under a user-installed CA. */
export const LEAF_VALIDITY_DAYS = 365;
export const RENEW_BEFORE_MS = 30 * DAY;

/** Local name suffixes the CA may sign (a dNSName constraint also covers every sub-name). */
const PERMITTED_DNS = ['localhost', 'local', 'lan', 'home.arpa', 'internal'];
/** Loopback, private (RFC 1918), link-local and carrier-grade NAT ranges: [address, prefix length]. */
const PERMITTED_IPV4: [string, number][] = [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
];

export interface TlsNames {
  dns: string[];
  ips: string[];
}

export interface TlsMaterial {
  caPem: string;
  certPem: string;
  keyPem: string;
  /** What the server certificate covers (names outside the CA's constraints are left out). */
  names: TlsNames;
  notAfter: number;
  /** 'created': new CA and certificate; 'issued': a new server certificate; 'kept': nothing changed. */
  outcome: 'created' | 'issued' | 'kept';
  /** base64 SHA-256 of the CA's SubjectPublicKeyInfo (what Chromium's --ignore-certificate-errors-spki-list takes). */
  caSpkiSha256: string;
  /** SHA-256 fingerprint of the CA certificate, AA:BB:… as phones show it. */
  caFingerprint: string;
}

interface CaMeta {
  /** Host names added to the permitted names when the CA was made. */
  dns: string[];
}

function paths(dir: string) {
  return {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    caMeta: join(dir, 'ca.json'),
    cert: join(dir, 'server.crt'),
    key: join(dir, 'server.key'),
  };
}

export function caCertificatePath(dataDir: string): string {
  return paths(tlsDir(dataDir)).caCert;
}

export function tlsDir(dataDir: string): string {
  return join(dataDir, 'tls');
}

function writeSecret(file: string, content: string): void {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function newRsaKey(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privatePem: privateKey, publicPem: publicKey };
}

/** A positive 128-bit serial number. */
function serial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

/** ASCII-only, short: forge writes subject strings as-is. */
function label(host: string): string {
  return host.replace(/[^A-Za-z0-9.-]/g, '').slice(0, 40) || 'servidor';
}

function isDnsName(name: string): boolean {
  return /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(name);
}

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function isIPv4(ip: string): boolean {
  const parts = ip.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function ipPermitted(ip: string): boolean {
  if (!isIPv4(ip)) return false;
  const value = ipToInt(ip);
  return PERMITTED_IPV4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = ipToInt(base);
    return value >= start && value < start + size;
  });
}

function dnsPermitted(name: string, extra: string[]): boolean {
  const lower = name.toLowerCase();
  return [...PERMITTED_DNS, ...extra].some((base) => lower === base || lower.endsWith(`.${base}`));
}

function nameConstraints(extraDns: string[]): forge.asn1.Asn1 {
  const { asn1 } = forge;
  const subtree = (generalName: forge.asn1.Asn1) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [generalName]);
  const dns = [...PERMITTED_DNS, ...extraDns].map((name) => subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 2, false, name)));
  const ips = PERMITTED_IPV4.map(([base, bits]) => {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    const bytes = Buffer.alloc(8);
    bytes.writeUInt32BE(ipToInt(base), 0);
    bytes.writeUInt32BE(mask, 4);
    return subtree(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 7, false, bytes.toString('binary')));
  });
  // NameConstraints ::= SEQUENCE { permittedSubtrees [0] GeneralSubtrees }
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [...dns, ...ips])]);
}

function createCa(dir: string, hostName: string, now: number): void {
  const p = paths(dir);
  const key = newRsaKey();
  const extraDns = isDnsName(hostName) && !dnsPermitted(hostName, []) ? [hostName.toLowerCase()] : [];
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - DAY);
  cert.validity.notAfter = new Date(now + CA_VALIDITY_DAYS * DAY);
  const subject = [
    { name: 'commonName', value: `Comanda CA local (${label(hostName)})` },
    { name: 'organizationName', value: 'Comanda' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
    { id: '2.5.29.30', critical: true, value: nameConstraints(extraDns) },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(key.privatePem), forge.md.sha256.create());
  writeFileSync(p.caCert, forge.pki.certificateToPem(cert));
  writeSecret(p.caKey, key.privatePem);
  writeFileSync(p.caMeta, JSON.stringify({ dns: extraDns } satisfies CaMeta));
}

function issueLeaf(dir: string, names: TlsNames, hostName: string, now: number, validityDays: number): void {
  const p = paths(dir);
  const caCert = forge.pki.certificateFromPem(readFileSync(p.caCert, 'utf8'));
  const caKey = forge.pki.privateKeyFromPem(readFileSync(p.caKey, 'utf8'));
  const key = newRsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicPem);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(now - DAY);
  cert.validity.notAfter = new Date(now + validityDays * DAY);
  cert.setSubject([
    { name: 'commonName', value: label(hostName) },
    { name: 'organizationName', value: 'Comanda' },
  ]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [...names.dns.map((value) => ({ type: 2, value })), ...names.ips.map((ip) => ({ type: 7, ip }))],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  writeSecret(p.key, key.privatePem);
  writeFileSync(p.cert, forge.pki.certificateToPem(cert));
}

/** The names the server certificate should cover: localhost, the host name (and .local), loopback and LAN IPv4. */
export function wantedNames(hostName: string, lanIps: string[], caExtraDns: string[]): TlsNames {
  const host = hostName.toLowerCase();
  const dnsCandidates = ['localhost', host, host.includes('.') ? '' : `${host}.local`].filter((n) => n && isDnsName(n));
  const dns = [...new Set(dnsCandidates.filter((n) => dnsPermitted(n, caExtraDns)))];
  const ips = [...new Set(['127.0.0.1', ...lanIps].filter(ipPermitted))].sort();
  return { dns, ips };
}

/** Names a certificate covers, read back through Node's own parser. */
export function certificateNames(certPem: string): TlsNames {
  const san = new X509Certificate(certPem).subjectAltName ?? '';
  const dns: string[] = [];
  const ips: string[] = [];
  for (const entry of san.split(/,\s*/)) {
    if (entry.startsWith('DNS:')) dns.push(entry.slice(4));
    else if (entry.startsWith('IP Address:')) ips.push(entry.slice(11));
  }
  return { dns, ips: ips.sort() };
}

function sameNames(a: TlsNames, b: TlsNames): boolean {
  const key = (n: TlsNames) => JSON.stringify([[...n.dns].sort(), [...n.ips].sort()]);
  return key(a) === key(b);
}

function spkiSha256(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

export interface EnsureTlsOptions {
  dataDir: string;
  hostName: string;
  lanIps: string[];
  now: number;
  /** Validity of a newly issued server certificate (tests issue short ones to exercise renewal). */
  leafValidityDays?: number;
}

/**
 * Makes the CA on first use and (re-)issues the server certificate when it is missing, not
 * signed by this CA, within RENEW_BEFORE_MS of its end, or when the wanted names changed.
 */
export function ensureTls(opts: EnsureTlsOptions): TlsMaterial {
  const dir = tlsDir(opts.dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const p = paths(dir);
  let outcome: TlsMaterial['outcome'] = 'kept';

  const caUsable = (() => {
    if (!existsSync(p.caCert) || !existsSync(p.caKey) || !existsSync(p.caMeta)) return false;
    try {
      const ca = new X509Certificate(readFileSync(p.caCert));
      return Date.parse(ca.validTo) - opts.now > RENEW_BEFORE_MS && Date.parse(ca.validFrom) <= opts.now;
    } catch {
      return false;
    }
  })();
  if (!caUsable) {
    createCa(dir, opts.hostName, opts.now);
    outcome = 'created';
  }
  const caPem = readFileSync(p.caCert, 'utf8');
  const meta = JSON.parse(readFileSync(p.caMeta, 'utf8')) as CaMeta;
  const names = wantedNames(opts.hostName, opts.lanIps, meta.dns);

  const leafUsable = (() => {
    if (outcome === 'created' || !existsSync(p.cert) || !existsSync(p.key)) return false;
    try {
      const leaf = new X509Certificate(readFileSync(p.cert));
      const ca = new X509Certificate(caPem);
      if (!leaf.checkIssued(ca) || !leaf.verify(ca.publicKey)) return false;
      if (Date.parse(leaf.validTo) - opts.now <= RENEW_BEFORE_MS || Date.parse(leaf.validFrom) > opts.now) return false;
      return sameNames(certificateNames(leaf.toString()), names);
    } catch {
      return false;
    }
  })();
  if (!leafUsable) {
    issueLeaf(dir, names, opts.hostName, opts.now, opts.leafValidityDays ?? LEAF_VALIDITY_DAYS);
    if (outcome === 'kept') outcome = 'issued';
  }
  const certPem = readFileSync(p.cert, 'utf8');
  const ca = new X509Certificate(caPem);
  return {
    caPem,
    certPem,
    keyPem: readFileSync(p.key, 'utf8'),
    names: certificateNames(certPem),
    notAfter: Date.parse(new X509Certificate(certPem).validTo),
    outcome,
    caSpkiSha256: spkiSha256(caPem),
    caFingerprint: ca.fingerprint256,
  };
}
