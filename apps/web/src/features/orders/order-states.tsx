import { ArrowLeft, SearchX, WifiOff } from 'lucide-react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import type { OrderScreen } from './use-order-screen.tsx';

/** Loading, 'Orden no encontrada' and load-error views; null once the order is there. */
export function OrderStates({ screen, backTo }: { screen: OrderScreen; backTo: string }) {
  const navigate = useNavigate();
  const back = (
    <Button variant="outline" onClick={() => navigate(backTo)}>
      <ArrowLeft className="h-4 w-4" aria-hidden />
      {t.order.backToTables}
    </Button>
  );
  // Offline with no copy of this order on the phone: say so instead of a spinner that never ends.
  if (screen.query.isPending && screen.query.fetchStatus === 'paused') {
    return (
      <div className="flex flex-col items-center gap-3 p-8 text-center">
        <WifiOff className="h-12 w-12 text-slate-400" aria-hidden />
        <p className="text-slate-700" role="status">
          {t.offline.orderNotOnDevice}
        </p>
        {back}
      </div>
    );
  }
  if (screen.query.isPending) return <Spinner />;
  if (screen.notFound) {
    return (
      <div className="flex flex-col items-center gap-3 p-8 text-center">
        <SearchX className="h-12 w-12 text-slate-400" aria-hidden />
        <h1 className="text-xl font-bold">{t.order.notFound}</h1>
        <p className="text-slate-600">{t.order.notFoundText}</p>
        {back}
      </div>
    );
  }
  if (screen.query.isError) {
    return (
      <div className="flex flex-col items-center gap-4 p-6">
        <ErrorState message={t.order.loadError} onRetry={() => void screen.query.refetch()} />
        {back}
      </div>
    );
  }
  return null;
}
