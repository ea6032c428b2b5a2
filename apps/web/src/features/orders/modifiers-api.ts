import { ModifierGroupsResponseSchema } from '@comanda/contract';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

/** Under 'products': a group's change arrives on the products topic (decision 0026). */
export const PICKER_MODIFIERS_KEY = ['products', 'modifier-groups'] as const;

/** Every modifier group, for the picker: each product shows those attached to it or its category. */
export function usePickerModifierGroups(enabled: boolean) {
  useLiveQueries(enabled ? ['products'] : [], [PICKER_MODIFIERS_KEY]);
  return useQuery({
    queryKey: PICKER_MODIFIERS_KEY,
    queryFn: async () => (await get(ModifierGroupsResponseSchema, '/api/modifier-groups')).groups,
    enabled,
    staleTime: 60_000,
  });
}
