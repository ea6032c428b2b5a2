import { useQuery, useQueryClient, useMutation } from '@tanstack/react-query';
import type { LoginBody, SessionUser, Role } from '@comanda/contract';
import { ApiError, get, post, unchecked } from './api.ts';

export const SESSION_KEY = ['session'] as const;
export const KITCHEN_NAME_KEY = 'comanda.kitchenUserName';

export const ROLE_HOME: Record<Role, string> = {
  admin: '/admin/home',
  waiter: '/waiter/home',
  kitchen: '/kitchen/cocina',
  barra: '/kitchen/barra',
};

async function fetchSession(): Promise<SessionUser | null> {
  try {
    return (await get(unchecked<{ user: SessionUser }>(), '/api/auth/me')).user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 5 * 60_000, retry: 1 });
}

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => post(unchecked<{ user: SessionUser }>(), '/api/auth/login', body),
    onSuccess: ({ user }) => {
      if (user.role === 'kitchen' || user.role === 'barra') localStorage.setItem(KITCHEN_NAME_KEY, user.displayName);
      qc.setQueryData(SESSION_KEY, user);
    },
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => post(unchecked<unknown>(), '/api/auth/logout'),
    onSuccess: () => {
      localStorage.removeItem(KITCHEN_NAME_KEY);
      qc.clear();
      qc.setQueryData(SESSION_KEY, null);
    },
  });
}
