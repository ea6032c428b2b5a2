import { Link } from 'react-router';
import { SearchX } from 'lucide-react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useOrder } from '../../lib/orders.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { CardDialogMemoryProvider } from './card-dialog-memory.tsx';
import { CheckoutScreen } from './checkout-screen.tsx';
import { useCheckoutArea, useCheckoutTarget } from './use-checkout-target.ts';

export function CheckoutPage() {
  return (
    <CardDialogMemoryProvider>
      <CheckoutTarget />
    </CardDialogMemoryProvider>
  );
}

function CheckoutTarget() {
  const target = useCheckoutTarget();
  if (target.resolving) return <Spinner label={t.checkout.tableOrderLoading} />;
  if (!target.orderId) return <OrderNotFound />;
  return <CheckoutLoader orderId={target.orderId} />;
}

function OrderNotFound() {
  const { home } = useCheckoutArea();
  return (
    <div className="p-4">
      <EmptyState icon={<SearchX className="h-10 w-10 text-slate-400" aria-hidden />} title={t.checkout.notFound}>
        <Link
          to={home}
          className="mt-2 inline-flex h-11 items-center rounded-lg bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-800"
        >
          {t.checkout.backToPanel}
        </Link>
      </EmptyState>
    </div>
  );
}

function CheckoutLoader({ orderId }: { orderId: string }) {
  const query = useOrder(orderId);
  const { home } = useCheckoutArea();
  if (query.isPending) return <Spinner />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 404) return <OrderNotFound />;
    return (
      <div className="space-y-3 p-4">
        <ErrorState message={errorMessage(query.error, t.order.loadError)} onRetry={() => void query.refetch()} retryLabel={t.app.retry} />
        <Link to={home} className="flex h-11 items-center justify-center text-sm font-medium text-slate-700 underline">
          {t.checkout.backToPanel}
        </Link>
      </div>
    );
  }
  // Remounted when the status changes, so a paid order shows the choices it was closed with.
  return <CheckoutScreen key={`${query.data.id}:${query.data.status}`} order={query.data} />;
}
