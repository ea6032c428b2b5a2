import { afterAll, beforeAll } from 'vitest';
import type { TestDbKind } from './databases.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './test-server.ts';

/** What serverForSuite hands a describe block. */
export interface SuiteServer {
  /** The running server, from the block's beforeAll on. */
  readonly server: TestServer;
  /** Runs the block's sign-in again (sessions end when a manual clock moves). */
  signInAgain(): Promise<void>;
}

/**
 * For a describe block: a test server started with `opts` before the block's tests and closed
 * after them. `signIn` runs once the server is up, so the block keeps its clients in its own
 * variables.
 */
export function serverForSuite(
  kind: TestDbKind,
  opts: TestServerOptions = {},
  signIn: (server: TestServer) => Promise<void> = async () => undefined,
): SuiteServer {
  let running: TestServer | undefined;
  beforeAll(async () => {
    running = await startTestServer(kind, opts);
    await signIn(running);
  }, 60_000);
  afterAll(async () => {
    await running?.close();
  });
  const suite: SuiteServer = {
    get server() {
      if (!running) throw new Error('the suite server starts in beforeAll');
      return running;
    },
    signInAgain: () => signIn(suite.server),
  };
  return suite;
}
