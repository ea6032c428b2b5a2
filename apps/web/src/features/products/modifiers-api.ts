import { ModifierGroupsResponseSchema, ModifierGroupResponseSchema, OkSchema } from '@comanda/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModifierGroup, ModifierGroupBody } from '@comanda/contract';
import { del, get, patch, post, put } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

/** Under 'products': a change on the products topic refreshes it with the catalogue (decision 0026). */
const MODIFIERS_KEY = ['products', 'modifier-groups'] as const;

export function useModifierGroups() {
  useLiveQueries(['products'], [MODIFIERS_KEY]);
  return useQuery({
    queryKey: MODIFIERS_KEY,
    queryFn: async () => (await get(ModifierGroupsResponseSchema, '/api/modifier-groups')).groups,
  });
}

export function useModifierMutations() {
  const qc = useQueryClient();
  const onSettled = () => qc.invalidateQueries({ queryKey: MODIFIERS_KEY });
  return {
    save: useMutation({
      mutationFn: ({ id, body }: { id: string | null; body: ModifierGroupBody }) =>
        id
          ? put(ModifierGroupResponseSchema, `/api/modifier-groups/${id}`, body)
          : post(ModifierGroupResponseSchema, '/api/modifier-groups', body),
      onSettled,
    }),
    remove: useMutation({ mutationFn: (id: string) => del(OkSchema, `/api/modifier-groups/${id}`), onSettled }),
    availability: useMutation({
      mutationFn: ({ optionId, available }: { optionId: string; available: boolean }) =>
        patch(ModifierGroupResponseSchema, `/api/modifier-options/${optionId}/availability`, { available }),
      onMutate: async ({ optionId, available }) => {
        await qc.cancelQueries({ queryKey: MODIFIERS_KEY });
        const previous = qc.getQueryData<ModifierGroup[]>(MODIFIERS_KEY);
        qc.setQueryData<ModifierGroup[]>(MODIFIERS_KEY, (list) =>
          list?.map((g) => ({ ...g, options: g.options.map((o) => (o.id === optionId ? { ...o, available } : o)) })),
        );
        return { previous };
      },
      onError: (_err, _vars, context) => {
        if (context?.previous) qc.setQueryData(MODIFIERS_KEY, context.previous);
      },
      onSettled,
    }),
  };
}
