import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { OrderResponseSchema } from '@comanda/contract';
import { get } from '../../lib/api.ts';

export interface CheckoutArea {
  /** '/admin' or '/waiter': the checkout serves both areas. */
  base: '/admin' | '/waiter';
  home: string;
}

export function useCheckoutArea(): CheckoutArea {
  const { pathname } = useLocation();
  const base = pathname.startsWith('/waiter') ? '/waiter' : '/admin';
  return { base, home: `${base}/home` };
}

function stateString(state: unknown, key: 'orderId' | 'tableId'): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const value = (state as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Which order to charge: the path's id, else navigation state's orderId, else the active order of
 * navigation state's tableId. Once found through state, the URL is rewritten so a reload works.
 */
export function useCheckoutTarget(): { orderId: string | undefined; resolving: boolean; missing: boolean } {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { base } = useCheckoutArea();
  const direct = params.orderId ?? stateString(location.state, 'orderId');
  const tableId = direct ? undefined : stateString(location.state, 'tableId');
  const byTable = useQuery({
    queryKey: ['table-order', tableId],
    queryFn: async () => (await get(OrderResponseSchema, `/api/tables/${tableId}/order`)).order,
    enabled: Boolean(tableId),
    retry: false,
  });
  const orderId = direct ?? byTable.data?.id;

  useEffect(() => {
    if (orderId && !params.orderId) navigate(`${base}/checkout/${orderId}`, { replace: true, state: location.state });
  }, [orderId, params.orderId, base, navigate, location.state]);

  return { orderId, resolving: Boolean(tableId) && byTable.isPending, missing: !orderId && !(Boolean(tableId) && byTable.isPending) };
}
