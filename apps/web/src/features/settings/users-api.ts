import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateUserBody, User } from '@comanda/contract';
import { get, patch, post } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

const USERS_KEY = ['users'] as const;

export function useUsers() {
  useLiveQueries(['users'], [USERS_KEY]);
  return useQuery({ queryKey: USERS_KEY, queryFn: async () => (await get<{ users: User[] }>('/api/users')).users });
}

export function useUserMutations() {
  const qc = useQueryClient();
  const onSettled = () => qc.invalidateQueries({ queryKey: USERS_KEY });
  return {
    create: useMutation({ mutationFn: (body: CreateUserBody) => post<{ user: User; inviteSent: boolean }>('/api/users', body), onSettled }),
    setActive: useMutation({
      mutationFn: ({ id, active }: { id: string; active: boolean }) => patch<{ user: User }>(`/api/users/${id}/active`, { active }),
      onSettled,
    }),
    reset: useMutation({ mutationFn: (id: string) => post<{ message: string }>(`/api/users/${id}/reset`) }),
    unlock: useMutation({ mutationFn: (id: string) => post<{ user: User }>(`/api/users/${id}/unlock`), onSettled }),
  };
}
