import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { CurrentSharedDevice, PinLoginBody, SessionUser, SharedDevicePeople } from '@comanda/contract';
import { get, post, unchecked } from './api.ts';
import { KITCHEN_NAME_KEY, SESSION_KEY, useLogout } from './session.ts';

export const SHARED_DEVICE_KEY = ['shared-device', 'current'] as const;
export const DEVICE_PEOPLE_KEY = ['shared-device', 'people'] as const;

/** Whether this browser is an enrolled shared device (the cookie is HttpOnly: only the server knows). */
export function useSharedDevice() {
  return useQuery({
    queryKey: SHARED_DEVICE_KEY,
    queryFn: () => get(unchecked<CurrentSharedDevice>(), '/api/shared-devices/current'),
    staleTime: 60_000,
    retry: 1,
  });
}

/** The people who can sign in here by PIN, by name (staff only: the admin uses the password). Read afresh on each switch. */
export function useDevicePeople() {
  return useQuery({
    queryKey: DEVICE_PEOPLE_KEY,
    queryFn: () => get(unchecked<SharedDevicePeople>(), '/api/shared-devices/current/people'),
    staleTime: 0,
    retry: 1,
  });
}

/** PIN sign-in on an enrolled device, as the person chosen by name: the same session a password sign-in opens. */
export function usePinLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PinLoginBody) => post(unchecked<{ user: SessionUser }>(), '/api/auth/pin-login', body),
    onSuccess: ({ user }) => {
      if (user.role === 'kitchen' || user.role === 'barra') localStorage.setItem(KITCHEN_NAME_KEY, user.displayName);
      else localStorage.removeItem(KITCHEN_NAME_KEY);
      qc.setQueryData(SESSION_KEY, user);
    },
  });
}

/** Signs out and returns to the keypad (the sign-in page shows it on an enrolled device). */
export function useLockDevice() {
  const logout = useLogout();
  const navigate = useNavigate();
  return {
    pending: logout.isPending,
    lock: (options: { onDone?: () => void; onError?: () => void } = {}) =>
      logout.mutate(undefined, {
        onSuccess: () => {
          options.onDone?.();
          navigate('/login', { replace: true });
        },
        onError: () => options.onError?.(),
      }),
  };
}
