import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The Node flags `npm start` gives the built server (package.json's start script), for everything
 * that must run it the same way (the night replay, the built-server test).
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode ((?:--\S+ )*)apps\/server\/dist\/main\.js/.exec(pkg.scripts.start)?.[1];
  if (flags === undefined) throw new Error('package.json: the start script does not run apps/server/dist/main.js with node');
  return flags.split(' ').filter(Boolean);
}

/** Where the kernel hands out ports to `listen(0)`: Linux's range, or its usual start elsewhere. */
function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/** Whether `port` can be listened on at loopback now; the probe is closed before it answers. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * A free loopback port for a child to take, drawn below the kernel's ephemeral range: a port the
 * kernel gave and took back could be given again to any `listen(0)` before the child binds it (a
 * server's own simulator took its HTTP port that way).
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralStart());
  for (let tries = 0; tries < 50; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`freePort: no free loopback port in ${low}–${high - 1}`);
}

export interface TsProcess {
  child: ChildProcess;
  url: string;
  /** The last 20 KB of what the process printed. */
  output: () => string;
  /** kill -9: no shutdown hook runs, a database sees a crash. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** A child process followed from its start: what it printed, when it exits, how to stop it. */
export interface FollowedChild {
  /** The last 20 KB of what the process printed. */
  output: () => string;
  /** Settles once the process has exited (however it ended). */
  exited: Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * Follows a child right after it is spawned (stdout and stderr piped): keeps the last 20 KB of
 * its output, hands each chunk to `onOutput` as well, and stops it gracefully on demand.
 */
export function followChild(child: ChildProcess, onOutput?: (chunk: Buffer) => void): FollowedChild {
  let log = '';
  const keep = (d: Buffer) => {
    log = (log + d.toString()).slice(-20_000);
    onOutput?.(d);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    output: () => log,
    exited,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Polls `url` every 100 ms until it answers 200. Throws, with the child's output, when the child
 * exits first or when `timeoutMs` passes (killing it then); `name` says which child in the error.
 */
export async function waitUntilReady(
  child: ChildProcess,
  url: string,
  opts: { name: string; timeoutMs: number; output: () => string },
): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${opts.name} exited with ${child.exitCode}:\n${opts.output()}`);
    const ready = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.name} not ready after ${opts.timeoutMs} ms:\n${opts.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs a TypeScript entry of the repository (with tsx) on loopback and waits until `readyPath` answers 200. */
export async function spawnTsProcess(
  entry: string,
  env: Record<string, string>,
  port: number,
  readyPath: string,
  timeoutMs = 60_000,
  // SERVER_NODE_ARGS: extra Node flags for a spawned server, e.g. "--cpu-prof --cpu-prof-dir=prof" to profile a benchmark's server.
  nodeArgs = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
): Promise<TsProcess> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', entry], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const followed = followChild(child);
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(child, url + readyPath, { name: entry, timeoutMs, output: followed.output });
  return {
    child,
    url,
    output: followed.output,
    async kill9() {
      child.kill('SIGKILL');
      await followed.exited;
    },
    stop: () => followed.stop(),
  };
}
