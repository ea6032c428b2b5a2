import { Rfc } from '@nodecfdi/rfc';
import type { FiscalSettingsBody, SessionUser } from '@comanda/contract';
import { DEFAULT_FISCAL, FISCAL_MESSAGES, fiscalProblems, normalizeRfc, type FiscalSettings } from '@comanda/domain';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { AppError } from '../../http/errors.ts';
import { readConfig, writeConfig } from '../../model/config-store.ts';
import { getFiscalSettings } from '../../model/fiscal-store.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * The RFC's own checks beyond its shape (SAT's algorithm, by @nodecfdi/rfc): a real date in its
 * date part and a matching check digit; the generic and foreign RFCs are not a business's.
 */
export function rfcProblem(value: string): string | null {
  const rfc = normalizeRfc(value);
  if (rfc === Rfc.RFC_GENERIC || rfc === Rfc.RFC_FOREIGN) return FISCAL_MESSAGES.rfcGeneric;
  const parsed = Rfc.parseOrNull(rfc);
  if (!parsed) return FISCAL_MESSAGES.rfcDate;
  if (!parsed.doesCheckSumMatch()) return FISCAL_MESSAGES.rfcCheckDigit;
  return null;
}

/** Every problem of the fiscal data, the first one's message the answer's (422 `fiscal_invalid`). */
export function checkFiscal(settings: FiscalSettings): void {
  const problems = fiscalProblems(settings);
  if (!problems.rfc) {
    const rfc = rfcProblem(settings.rfc);
    if (rfc) problems.rfc = rfc;
  }
  const first = Object.values(problems)[0];
  if (first) throw new AppError(422, 'fiscal_invalid', first);
}

/** Configuración › Datos fiscales: checked whole, stored under 'fiscal', audited with what changed. */
export function saveFiscalSettings(ctx: WriteContext, user: SessionUser, body: FiscalSettingsBody): Promise<FiscalSettings> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const before = (await readConfig<Partial<FiscalSettings>>(trx, 'fiscal')) ?? {};
    const { facturaGlobal, ...fields } = body;
    const settings: FiscalSettings = {
      ...fields,
      rfc: normalizeRfc(body.rfc),
      facturaGlobal: facturaGlobal ?? before.facturaGlobal ?? DEFAULT_FISCAL.facturaGlobal,
    };
    checkFiscal(settings);
    await writeConfig(trx, 'fiscal', settings, now);
    await audit(trx, now, {
      actor: { id: user.id, displayName: user.displayName },
      action: 'config.fiscal.update',
      entity: 'config',
      entityId: 'fiscal',
      data: { before, after: settings },
    });
    emit({ topic: 'config', type: 'config.updated', id: 'fiscal', version: now });
    return getFiscalSettings(trx);
  });
}
