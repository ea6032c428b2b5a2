/**
 * What the main thread does between the navigation and the first table card of `/waiter/home`,
 * first visit, 4× CPU throttling, 390×844 (the moment bench/web.ts times): a Chromium trace per
 * run, summarised as the scripts' arrival, each long task and what it spent its time on.
 * `npx tsx bench/web-profile.ts` (WEB_DIST=<a built app> skips the build; BENCH_TTI_RUNS runs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { ACCOUNTS, buildWebWithManifest, fmt, login, startComanda } from './lib.ts';
import { visit, watch } from './web.ts';

const RUNS = Number(process.env.BENCH_TTI_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's own CPU time inside the event, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  cat: string;
  args?: { name?: string; data?: { url?: string; frame?: string; requestId?: string; functionName?: string } };
}

const short = (url = '') => url.replace(/^.*\//, '').replace(/\?.*$/, '') || url;

function summarise(events: TraceEvent[], cardAt: number, origin: string, log: (l: string) => void): void {
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data && 'isLoadingMainFrame' in e.args.data);
  const start = (nav ?? events.find((e) => e.name === 'navigationStart'))!;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === start.pid) ?? start;
  const at = (ts: number) => (ts - start.ts) / 1000;
  for (const e of events) {
    if (['firstPaint', 'firstContentfulPaint', 'largestContentfulPaint::Candidate'].includes(e.name) && e.pid === start.pid)
      log(`    ${fmt(at(e.ts), 0).padStart(5)} ms  ${e.name}`);
  }
  const requests = new Map<string, { url: string; sent: number; done?: number }>();
  for (const e of events) {
    const id = e.args?.data?.requestId;
    if (!id) continue;
    if (e.name === 'ResourceSendRequest') requests.set(id, { url: e.args!.data!.url ?? '', sent: at(e.ts) });
    if (e.name === 'ResourceFinish' && requests.has(id)) requests.get(id)!.done = at(e.ts);
  }
  for (const r of [...requests.values()].sort((a, b) => a.sent - b.sent))
    if (r.sent < cardAt && r.url.startsWith(origin))
      log(`    ${fmt(r.sent, 0).padStart(5)} → ${fmt(r.done ?? NaN, 0).padStart(5)} ms  ${short(r.url)}`);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && at(e.ts) >= 0 && at(e.ts) < cardAt);
  let busy = 0;
  let cpu = 0;
  const totals = new Map<string, number>();
  for (const task of tasks) {
    busy += task.dur! / 1000;
    cpu += (task.tdur ?? 0) / 1000;
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= task.ts + task.dur!);
    const what = new Map<string, number>();
    for (const e of inside) {
      if (
        ![
          'EvaluateScript',
          'v8.evaluateModule',
          'v8.compile',
          'v8.compileModule',
          'FunctionCall',
          'ParseHTML',
          'Layout',
          'UpdateLayoutTree',
          'Paint',
          'PrePaint',
          'Commit',
          'TimerFire',
          'FireAnimationFrame',
          'v8.produceModuleCache',
          'V8.GCScavenger',
          'MajorGC',
          'MinorGC',
        ].includes(e.name)
      )
        continue;
      const key = `${e.name}${e.args?.data?.url ? ` ${short(e.args.data.url)}` : ''}${e.args?.data?.functionName ? ` ${e.args.data.functionName}` : ''}`;
      what.set(key, (what.get(key) ?? 0) + e.dur! / 1000);
      totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur! / 1000);
    }
    if (task.dur! < 8000) continue;
    const top = [...what.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
    log(
      `    ${fmt(at(task.ts), 0).padStart(5)} ms  task ${fmt(task.dur! / 1000, 0)} ms: ${top.map(([k, v]) => `${k} ${fmt(v, 0)}`).join('; ')}`,
    );
  }
  // The CPU time is what a loaded machine changes least: a task's wall time there includes the
  // time the main thread waited for a core.
  log(`    main thread busy ${fmt(busy, 0)} ms (its CPU time ${fmt(cpu, 0)} ms) of ${fmt(cardAt, 0)} ms before the first card`);
  log(
    `    nested totals: ${[...totals.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v, 0)}`)
      .join(', ')}`,
  );
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by script and the heaviest functions (with their callers' script), from a CPU profile. */
function summariseProfile(profile: CpuProfile, log: (l: string) => void): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));
  const byUrl = new Map<string, number>();
  const byFn = new Map<string, number>();
  // Time under each script's top-level evaluation (a frame with an empty name at line 0).
  const underTop = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const url = short(n.callFrame.url) || `(${n.callFrame.functionName})`;
    byUrl.set(url, (byUrl.get(url) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + ms);
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (f.functionName === '' && f.lineNumber === 0 && f.url) {
        underTop.set(short(f.url), (underTop.get(short(f.url)) ?? 0) + ms);
        break;
      }
    }
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([n, v]) => `${n} ${fmt(v, 0)}`);
  log(`    self time by script: ${top(byUrl, 14).join(', ')}`);
  log(`    under a module's top level: ${top(underTop, 12).join(', ')}`);
  log(`    heaviest functions: ${top(byFn, 15).join('; ')}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-bench-profile-'));
  const dist = process.env.WEB_DIST ?? join(dir, 'web');
  try {
    if (!process.env.WEB_DIST) buildWebWithManifest(dist);
    const server = await startComanda({ DATABASE_URL: `sqlite:${join(dir, 'pos.db')}`, DATA_DIR: dir, WEB_DIST: dist });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const cookie = await login(server.url, ACCOUNTS.waiter);
      const [name, value] = cookie.split('=') as [string, string];
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-MX' });
        await context.addCookies([{ name, value, url: server.url }]);
        // The moments are taken as bench/web.ts takes them: an init script, no injected polling.
        await context.addInitScript(watch('table-card-', 'Mesas'));
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        const traceFile = join(dir, `trace-${run}.json`);
        await browser.startTracing(page, {
          path: traceFile,
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8.execute',
            'v8',
            'blink.user_timing',
            'loading',
            'netlog',
          ],
        });
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        const cardAt = (await visit(page, `${server.url}/waiter/home`)).firstCard;
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
        await browser.stopTracing();
        console.log(`run ${run + 1}: first card at ${fmt(cardAt, 0)} ms`);
        const { traceEvents } = JSON.parse(readFileSync(traceFile, 'utf8')) as { traceEvents: TraceEvent[] };
        summarise(traceEvents, cardAt, server.url, console.log);
        summariseProfile(profile, console.log);
        await context.close();
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
