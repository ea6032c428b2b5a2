import type { AppContext } from '../../http/context.ts';
import type { Trx } from '../../http/transaction.ts';
import { randomToken, sha256 } from '../../http/ids.ts';
import { getGeneralConfig } from '../../model/config-store.ts';

export type TokenPurpose = 'reset' | 'invite';

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  reset: 60 * 60_000,
  invite: 7 * 24 * 60 * 60_000,
};

/**
 * Issues a single-use link token; only its hash is stored. Any earlier unused link of the
 * same user stops working, so only the newest e-mail counts.
 */
export async function issueToken(trx: Trx, userId: string, purpose: TokenPurpose, now: number): Promise<string> {
  await trx.updateTable('user_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  const token = randomToken();
  await trx
    .insertInto('user_tokens')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: now + TOKEN_TTL_MS[purpose],
      used_at: null,
    })
    .execute();
  return token;
}

export interface LiveToken {
  hash: string;
  userId: string;
  purpose: TokenPurpose;
  email: string;
}

/** The token's user when it is known, unused and not expired; null otherwise. */
export async function findLiveToken(db: Trx, token: string, now: number): Promise<LiveToken | null> {
  const hash = sha256(token);
  const row = await db
    .selectFrom('user_tokens')
    .innerJoin('users', 'users.id', 'user_tokens.user_id')
    .select(['user_tokens.user_id', 'user_tokens.purpose', 'user_tokens.expires_at', 'user_tokens.used_at', 'users.email'])
    .where('user_tokens.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row || row.used_at !== null || Number(row.expires_at) <= now) return null;
  return { hash, userId: row.user_id, purpose: row.purpose, email: row.email };
}

/** Marks the token used; false when another request used it first. */
export async function consumeToken(trx: Trx, hash: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function linkFor(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Sends the invitation or reset e-mail; throws when the mail could not be handed over. */
export async function sendTokenMail(
  ctx: AppContext,
  to: { email: string; displayName: string },
  purpose: TokenPurpose,
  link: string,
): Promise<void> {
  const business = (await getGeneralConfig(ctx.db.db)).name || 'Comanda';
  const mail =
    purpose === 'invite'
      ? {
          subject: `Invitación a ${business}`,
          text: [
            `Hola ${to.displayName}:`,
            '',
            `Se creó tu cuenta en ${business}. Para activarla, crea tu contraseña en este enlace:`,
            link,
            '',
            'El enlace funciona una sola vez y vence en 7 días.',
          ].join('\n'),
        }
      : {
          subject: `Restablecer contraseña - ${business}`,
          text: [
            `Hola ${to.displayName}:`,
            '',
            'Recibimos una solicitud para restablecer tu contraseña. Crea una nueva en este enlace:',
            link,
            '',
            'El enlace funciona una sola vez y vence en 1 hora. Si no lo pediste, ignora este correo.',
          ].join('\n'),
        };
  await ctx.mailer.send({ to: to.email, ...mail });
}
