import { REGIMENES_FISCALES, rfcPersonKind } from '@comanda/domain';

/** Only the regímenes of the kind of person the RFC names (all while it is incomplete). */
export function regimenesFor(rfc: string) {
  const kind = rfcPersonKind(rfc);
  return kind.ok ? REGIMENES_FISCALES.filter((r) => r.applies.includes(kind.kind)) : REGIMENES_FISCALES;
}
