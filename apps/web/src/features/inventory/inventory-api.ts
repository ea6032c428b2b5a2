import { InsumosResponseSchema, LowStockResponseSchema, VarianceResponseSchema } from '@comanda/contract';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../lib/api.ts';

export const useInsumos = () =>
  useQuery({ queryKey: ['inventory', 'insumos'], queryFn: () => get(InsumosResponseSchema, '/api/inventory/insumos') });
export const useLowStock = () =>
  useQuery({
    queryKey: ['inventory', 'low-stock'],
    queryFn: () => get(LowStockResponseSchema, '/api/inventory/low-stock'),
    refetchInterval: 60_000,
  });
export const useVariance = (date: string) =>
  useQuery({
    queryKey: ['inventory', 'variance', date],
    queryFn: () => get(VarianceResponseSchema, `/api/inventory/variance?date=${date}`),
  });
