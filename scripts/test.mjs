#!/usr/bin/env node
// Runs the static gates (lint, typecheck, formatting) and every suite (Vitest: domain, server
// integration, web units; Playwright: end to end), then prints one closing line that counts them
// all: "tests: N passed, N failed". Each static gate counts as one test.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const out = mkdtempSync(join(tmpdir(), 'comanda-test-results-'));
const only = process.argv[2]; // optional: "static", "unit" or "e2e"
let passed = 0;
let failed = 0;
let crashed = false;
/** Each failed test's name and first line of its error, printed again at the very end (CI keeps only the tail). */
const failures = [];

/** Runs a command with its output shown as it comes; without blocking, so gates started before it keep streaming. */
function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Runs a command with its output streamed line by line behind a prefix (for runs side by side). */
function runPrefixed(prefix, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (d) => {
        const lines = (rest + d).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
      });
      stream.on('end', () => rest && process.stdout.write(`${prefix}${rest}\n`));
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Runs a command with its output kept (stdout and stderr together), for gates that run side by side. */
function runQuiet(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * Under CI=true the PostgreSQL suites must run: without TEST_DATABASE_URL, or with a server that
 * does not answer, that counts as one failed test (the suites would otherwise skip it silently).
 */
async function postgresMissingInCi() {
  if (process.env.CI !== 'true') return null;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return 'TEST_DATABASE_URL is not set';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `PostgreSQL at TEST_DATABASE_URL does not answer (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

if (only === undefined || only === 'unit') {
  const missing = await postgresMissingInCi();
  if (missing) {
    failed += 1;
    console.log(`Failed: CI=true requires PostgreSQL for the integration suites: ${missing}`);
  }
}

// The static gates (each one process on one core) run beside Vitest, which leaves a part of the
// two cores idle while its suites wait on commits and sockets: one after another, so that they fill
// that part all along instead of crowding its first minutes. Their output is printed after, gate by gate.
async function runGates(gates) {
  const results = [];
  for (const [name, cmd, args] of gates) results.push({ name, ...(await runQuiet(cmd, args)) });
  return results;
}
const staticGates =
  only === undefined || only === 'static'
    ? runGates([
        ['lint', 'npx', ['eslint', '.']],
        ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
        ['format', 'npx', ['prettier', '--check', '.', '--log-level', 'warn']],
      ])
    : Promise.resolve([]);

// The e2e's web build starts once the static gates are done: Vitest alone leaves a part of the two
// cores idle (its suites wait on commits, sockets and child servers), and the build fills some of it.
const e2eWeb = only === undefined || only === 'e2e' ? join(mkdtempSync(join(tmpdir(), 'comanda-e2e-web-')), 'web') : '';
const webBuilt = e2eWeb
  ? staticGates.then(() =>
      runPrefixed('[web build] ', 'npx', ['vite', 'build', 'apps/web', '--outDir', e2eWeb, '--emptyOutDir', '--logLevel', 'warn']),
    )
  : Promise.resolve(0);

if (only === undefined || only === 'unit') {
  console.log(
    `Integration suites run on: SQLite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL (TEST_DATABASE_URL)' : ' only (set TEST_DATABASE_URL for PostgreSQL)'}`,
  );
  const file = join(out, 'vitest.json');
  const code = await run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]);
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + (r.numFailedTestSuites && !r.numFailedTests ? r.numFailedTestSuites : 0);
    for (const suite of r.testResults ?? []) {
      const where = suite.name?.replace(`${process.cwd()}/`, '') ?? '?';
      const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedTests) failures.push(`vitest ${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      if (suite.status === 'failed' && failedTests.length === 0) failures.push(`vitest ${where}: ${firstLine(suite.message)}`);
    }
  } else crashed = true;
  if (code !== 0 && failed === 0) crashed = true;
}

for (const { name, code, output } of await staticGates) {
  console.log(`Static gate: ${name}`);
  if (output.trim()) console.log(output.trimEnd());
  if (code === 0) passed += 1;
  else {
    failed += 1;
    failures.push(`static gate ${name}`);
    console.log(`Static gate failed: ${name}`);
  }
}

/**
 * The spec files dealt to `shards` runs so their times come out even: longest first, each onto the
 * run with the least so far, by e2e/spec-seconds.json (seconds per file in a CI run; a file not
 * listed counts as the median). Playwright's --shard splits by test count in file order instead,
 * which can stack the long files on one run.
 */
function dealSpecs(shards) {
  const dir = join('e2e', 'tests');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.spec.ts'))
    .sort();
  const listed = JSON.parse(readFileSync(join('e2e', 'spec-seconds.json'), 'utf8'));
  const known = files
    .map((f) => listed[f])
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const seconds = (f) => listed[f] ?? known[Math.floor(known.length / 2)] ?? 60;
  const runs = Array.from({ length: shards }, () => ({ files: [], seconds: 0 }));
  for (const f of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const run = runs.reduce((least, r) => (r.seconds < least.seconds ? r : least));
    run.files.push(join(dir, f));
    run.seconds += seconds(f);
  }
  return runs.filter((r) => r.files.length > 0);
}

/** Adds each spec file's test time (retries included) from a Playwright JSON report's suites to `into`. */
function specSeconds(suites, into) {
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) for (const r of t.results ?? []) into[file] = (into[file] ?? 0) + r.duration / 1000;
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of suites) walk(suite, suite.file.split('/').pop());
}

/** The first non-empty line of an error message, ANSI colours removed. */
function firstLine(text) {
  // eslint-disable-next-line no-control-regex
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return (plain.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 300);
}

/** Adds each end-to-end test that failed on its last try (file:line › title: error) to `into`. */
function failedSpecs(suites, into) {
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const last = t.results?.at(-1);
        if (t.status === 'unexpected')
          into.push(`e2e ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(last?.error?.message ?? last?.errors?.[0]?.message)}`);
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of suites) walk(suite);
}

if (only === undefined || only === 'e2e') {
  // E2E_SHARDS (default 2) Playwright runs side by side, each with its own server, port and
  // database (so no spec sees another shard's tables, shift or drawer), over one web build. Most
  // of an end-to-end test is waiting (the browser, polls, printers, the card simulator), so two fit
  // two cores; a third made every test ~1.8× slower in CI and the whole run longer.
  const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
  const built = await webBuilt;
  if (built !== 0) crashed = true;
  else {
    const dealt = dealSpecs(shards);
    // Ports 4400–4799 (each run takes its port and the next, for the card simulator): one band per shard.
    const band = Math.floor(400 / dealt.length);
    const runs = dealt.map(({ files, seconds }, i) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'comanda-e2e-'));
      const port = 4400 + i * band + 2 * Math.floor((Math.random() * (band - 2)) / 2);
      const prefix = dealt.length > 1 ? `[e2e ${i + 1}/${dealt.length}] ` : '';
      console.log(`${prefix}${files.length} spec files, about ${Math.round(seconds / 60)} min in CI; results in ${dataDir}`);
      const args = ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...files];
      const env = { E2E_DATA_DIR: dataDir, E2E_PORT: String(port), E2E_WEB_DIST: e2eWeb };
      return runPrefixed(prefix, 'npx', args, env).then((code) => ({ code, dataDir }));
    });
    const measured = {};
    for (const { code, dataDir } of await Promise.all(runs)) {
      const file = join(dataDir, 'results.json');
      let counted = false;
      if (existsSync(file)) {
        const report = JSON.parse(readFileSync(file, 'utf8'));
        const s = report.stats ?? {};
        passed += (s.expected ?? 0) + (s.flaky ?? 0);
        failed += s.unexpected ?? 0;
        counted = (s.unexpected ?? 0) > 0;
        specSeconds(report.suites ?? [], measured);
        failedSpecs(report.suites ?? [], failures);
      } else crashed = true;
      if (code !== 0 && !counted) crashed = true;
    }
    // This run's seconds per spec file, in the form of e2e/spec-seconds.json (to refresh it from a CI run).
    const sorted = Object.fromEntries(
      Object.entries(measured)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([f, sec]) => [f, Math.round(sec)]),
    );
    writeFileSync(join(out, 'spec-seconds.json'), `${JSON.stringify(sorted, null, 2)}\n`);
    console.log(`Seconds per spec file in this run: ${join(out, 'spec-seconds.json')}`);
  }
}

if (crashed && failed === 0) failed = 1;
if (failures.length > 0 || crashed) {
  console.log(`Failed (${failures.length}${crashed ? ', and a run that ended without its report' : ''}):`);
  for (const f of failures) console.log(`  ${f}`);
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
