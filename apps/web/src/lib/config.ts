import { useQuery } from '@tanstack/react-query';
import type { GeneralConfig } from '@comanda/contract';
import { get } from './api.ts';
import { useLiveQueries } from './use-live.ts';

export interface PublicConfig {
  name: string;
  logoUrl: string;
}

export const CONFIG_KEYS = { public: ['config', 'public'], general: ['config', 'general'] } as const;

/** Business name and logo, readable before sign-in; a generic title is the fallback. */
export function usePublicConfig() {
  return useQuery({ queryKey: CONFIG_KEYS.public, queryFn: () => get<PublicConfig>('/api/config/public'), staleTime: 60_000 });
}

/** Full business information (name, address, phone, time zone, shift hours), kept live. */
export function useGeneralConfig() {
  useLiveQueries(['config'], [CONFIG_KEYS.general, CONFIG_KEYS.public]);
  return useQuery({ queryKey: CONFIG_KEYS.general, queryFn: () => get<GeneralConfig>('/api/config/general'), staleTime: 60_000 });
}
