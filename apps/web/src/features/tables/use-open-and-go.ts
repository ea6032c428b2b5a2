import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { Table } from '@comanda/contract';
import { offlineOr } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useOpenTable } from './tables-api.ts';

/**
 * Opens a free table and goes to its order under `area`; `opening` is the table being opened, or
 * null. Call it in the page, never in the free card: the table's live event often arrives before
 * the answer and turns the card into an occupied one, and an unmounted card's callbacks never run.
 */
export function useOpenAndGo(area: '/admin' | '/waiter'): { open: (table: Table) => void; opening: string | null } {
  const openTable = useOpenTable();
  const navigate = useNavigate();
  const open = (table: Table) =>
    openTable.mutate(table.id, {
      onSuccess: () => void navigate(`${area}/order/${table.id}`),
      onError: (error) => toast.error(offlineOr(error, t.tables.openError)),
    });
  return { open, opening: openTable.isPending ? (openTable.variables ?? null) : null };
}
