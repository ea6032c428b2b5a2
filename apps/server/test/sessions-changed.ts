import type { Kysely } from 'kysely';
import type { Role } from '@comanda/contract';
import type { Database } from '../src/db/schema.ts';
import type { ApiClient } from '../src/testing/index.ts';
import { sha256 } from '../src/http/ids.ts';

/** The hash a signed-in client's session is stored by. */
export const sessionHashOf = (api: ApiClient) => sha256(api.cookie!.split('=').slice(1).join('='));

/** What another process may do to a session taken as remembered: its name, the change, the status it must get, and the change undone. */
export type SessionChange = [string, (api: ApiClient) => Promise<unknown>, number, () => Promise<unknown>];

/**
 * The changes made elsewhere to `userId`'s sessions that a remembered session's check must catch:
 * the session ended (401), the user deactivated (401, unless `deactivate` is false) and the user
 * given another role (403; `other` names it, e.g. a cook for 'kitchen').
 */
export function sessionChanges(
  db: () => Kysely<Database>,
  user: { id: string; role: Role },
  other: { role: Role; name: string },
  deactivate = true,
): SessionChange[] {
  const userId = user.id;
  const setRole = (r: Role) => () => db().updateTable('users').set({ role: r }).where('id', '=', userId).execute();
  return [
    [
      'session ended elsewhere',
      (api) => db().deleteFrom('sessions').where('token_hash', '=', sessionHashOf(api)).execute(),
      401,
      async () => undefined,
    ],
    ...(deactivate
      ? [
          [
            'user deactivated elsewhere',
            () => db().updateTable('users').set({ active: 0 }).where('id', '=', userId).execute(),
            401,
            () => db().updateTable('users').set({ active: 1 }).where('id', '=', userId).execute(),
          ] satisfies SessionChange,
        ]
      : []),
    [`user now ${other.name}`, setRole(other.role), 403, setRole(user.role)],
  ];
}
