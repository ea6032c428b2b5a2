import { useQuery } from '@tanstack/react-query';
import type { GeneralConfig } from '@comanda/contract';
import { get, unchecked } from './api.ts';
import { useLiveQueries } from './use-live.ts';

export interface PublicConfig {
  name: string;
  logoUrl: string;
}

export const CONFIG_KEYS = { public: ['config', 'public'], general: ['config', 'general'] } as const;

/** Business name and logo, readable before sign-in; a generic title is the fallback. */
export function usePublicConfig() {
  return useQuery({ queryKey: CONFIG_KEYS.public, queryFn: () => get(unchecked<PublicConfig>(), '/api/config/public'), staleTime: 60_000 });
}

/** The query of the full business information (shared by useGeneralConfig and useBusinessZone). */
export const generalConfigQuery = {
  queryKey: CONFIG_KEYS.general,
  queryFn: () => get(unchecked<GeneralConfig>(), '/api/config/general'),
  staleTime: 60_000,
};

/** Full business information (name, address, phone, time zone, shift hours), kept live. */
export function useGeneralConfig() {
  useLiveQueries(['config'], [CONFIG_KEYS.general, CONFIG_KEYS.public]);
  return useQuery(generalConfigQuery);
}
