import { hostname, networkInterfaces } from 'node:os';

/** Non-internal IPv4 addresses of this machine (what phones on the same network can reach). */
export function lanIPv4(): string[] {
  const found = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal) found.add(entry.address);
    }
  }
  return [...found].sort();
}

export function machineHostName(): string {
  return hostname();
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function isWildcard(host: string): boolean {
  return host === '' || host === '0.0.0.0' || host === '::';
}

/** Whether other devices on the network can reach a server bound to this host. */
export function listensOnNetwork(bindHost: string): boolean {
  return !isLoopback(bindHost);
}

export interface ListenUrl {
  url: string;
  /** 'local' only works on this machine; 'lan' from other devices on the network. */
  kind: 'local' | 'lan';
}

/** Every address the server answers on for a bind host and port: localhost, then each LAN address. */
export function listenUrls(protocol: 'http' | 'https', bindHost: string, port: number, lanIps: string[] = lanIPv4()): ListenUrl[] {
  const urls: ListenUrl[] = [];
  if (isWildcard(bindHost) || isLoopback(bindHost)) urls.push({ url: `${protocol}://localhost:${port}`, kind: 'local' });
  const lan = isWildcard(bindHost) ? lanIps : isLoopback(bindHost) ? [] : [bindHost];
  for (const ip of lan) urls.push({ url: `${protocol}://${ip.includes(':') ? `[${ip}]` : ip}:${port}`, kind: 'lan' });
  return urls;
}
