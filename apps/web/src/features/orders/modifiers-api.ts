import { useQuery } from '@tanstack/react-query';
import { PICKER_MODIFIERS_KEY, pickerModifierGroupsQuery } from '../../lib/catalogue.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

/** Every modifier group, for the picker: each product shows those attached to it or its category (decision 0026). */
export function usePickerModifierGroups(enabled: boolean) {
  useLiveQueries(enabled ? ['products'] : [], [PICKER_MODIFIERS_KEY]);
  return useQuery({ ...pickerModifierGroupsQuery, enabled });
}
