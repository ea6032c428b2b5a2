import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreateUserBody,
  CreateUserResponseSchema,
  MessageResponseSchema,
  UserResponseSchema,
  UsersResponseSchema,
} from '@comanda/contract';
import { get, patch, post } from '../../lib/api.ts';
import { useLiveQueries } from '../../lib/use-live.ts';

const USERS_KEY = ['users'] as const;

export function useUsers() {
  useLiveQueries(['users'], [USERS_KEY]);
  return useQuery({ queryKey: USERS_KEY, queryFn: async () => (await get(UsersResponseSchema, '/api/users')).users });
}

export function useUserMutations() {
  const qc = useQueryClient();
  const onSettled = () => qc.invalidateQueries({ queryKey: USERS_KEY });
  return {
    create: useMutation({ mutationFn: (body: CreateUserBody) => post(CreateUserResponseSchema, '/api/users', body), onSettled }),
    setActive: useMutation({
      mutationFn: ({ id, active }: { id: string; active: boolean }) => patch(UserResponseSchema, `/api/users/${id}/active`, { active }),
      onSettled,
    }),
    reset: useMutation({ mutationFn: (id: string) => post(MessageResponseSchema, `/api/users/${id}/reset`) }),
    unlock: useMutation({ mutationFn: (id: string) => post(UserResponseSchema, `/api/users/${id}/unlock`), onSettled }),
  };
}
