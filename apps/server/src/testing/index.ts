export * from './databases.ts';
export * from './test-server.ts';
export { DEMO_PASSWORD, DEMO_USERS, DEMO_PRODUCTS } from '../seed/demo-data.ts';
export {
  assertInvariants,
  assertUnitsAccounted,
  unitLedger,
  type InvariantOptions,
  type TerminalCharge,
  type UnitLedger,
} from './invariants.ts';
export { connectLive, type LiveTestClient } from './live-client.ts';
export { REPO_ROOT, freePort, spawnTsProcess, startNodeFlags, type TsProcess } from './process.ts';
export { withShiftHoldingNow } from './shift.ts';
export { fewestStatements, planOf, statementsDuring } from './statements.ts';
