import { useState } from 'react';
import { toast } from 'sonner';
import { KeyRound, LockOpen, Mail, UserPlus, Users } from 'lucide-react';
import type { User } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useNow } from '../../lib/use-now.ts';
import { AddUserDialog } from './add-user-dialog.tsx';
import { ROLE_OPTIONS, roleLabel } from './role-labels.ts';
import { useUserMutations, useUsers } from './users-api.ts';
import { useBusinessDates } from '../../lib/dates.ts';

const GRID = 'px-4 py-3 text-sm md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1.2fr)_15rem] md:gap-4';

export function UsersTab() {
  const dates = useBusinessDates();
  const users = useUsers();
  const { data: me } = useSession();
  const { setActive, reset, unlock } = useUserMutations();
  const now = useNow(15_000);
  const [adding, setAdding] = useState(false);
  const [deactivating, setDeactivating] = useState<User | null>(null);

  const sendReset = (user: User) =>
    reset.mutate(user.id, {
      onSuccess: () => toast.success(t.settings.resetSent(user.email)),
      onError: (err) => toast.error(errorMessage(err, t.settings.resetError)),
    });

  const lift = (user: User) =>
    unlock.mutate(user.id, {
      onSuccess: () => toast.success(t.settings.userUnlocked),
      onError: (err) => toast.error(errorMessage(err, t.settings.unlockError)),
    });

  const changeActive = (user: User, active: boolean) =>
    setActive.mutate(
      { id: user.id, active },
      {
        onSuccess: () => {
          toast.success(active ? t.settings.userActivated : t.settings.userDeactivated);
          setDeactivating(null);
        },
        onError: (err) => toast.error(errorMessage(err, t.settings.userToggleError)),
      },
    );

  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <Button variant="accent" onClick={() => setAdding(true)}>
          <UserPlus className="h-4 w-4" aria-hidden />
          {t.settings.addUser}
        </Button>
      </div>
      {users.isPending ? (
        <Spinner />
      ) : users.isError ? (
        <ErrorState message={t.settings.usersLoadError} onRetry={() => void users.refetch()} />
      ) : users.data.length === 0 ? (
        <EmptyState icon={<Users className="h-8 w-8" aria-hidden />} title={t.settings.noUsers} />
      ) : (
        <Card className="overflow-hidden">
          {/* One markup for both sizes: a table-like grid from md up, stacked rows on a phone. */}
          <div
            aria-hidden
            className={`${GRID} hidden border-b border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500 md:grid`}
          >
            <span>{t.settings.user}</span>
            <span>{t.settings.role}</span>
            <span>{t.settings.status}</span>
            <span className="text-right">{t.settings.actions}</span>
          </div>
          <ul className="divide-y divide-slate-100">
            {users.data.map((user) => {
              const self = user.id === me?.id;
              return (
                <li
                  key={user.id}
                  data-testid="user-row"
                  className={`${GRID} grid gap-2 md:items-center ${user.active ? '' : 'bg-slate-50 text-slate-500'}`}
                >
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {user.displayName} {self && <span className="font-normal text-slate-500">{t.settings.you}</span>}
                    </p>
                    <p className="truncate text-xs text-slate-500">{user.email}</p>
                  </div>
                  <div className="flex items-center gap-1.5">
                    <span>{roleLabel(user.role)}</span>
                    {user.hasPin && <KeyRound className="h-3.5 w-3.5 text-slate-400" aria-label={t.settings.hasPin} />}
                  </div>
                  <div className="flex flex-wrap gap-1.5">
                    <Badge tone={user.active ? 'success' : 'neutral'}>{user.active ? t.settings.active : t.settings.inactive}</Badge>
                    {!user.hasPassword && <Badge tone="warning">{t.settings.invitePending}</Badge>}
                    {user.lock && (
                      <span className="flex flex-wrap items-center gap-1.5" data-testid="user-lock">
                        <Badge tone="danger" title={t.settings.lockHint}>
                          {t.settings.locked}
                        </Badge>
                        <span className="text-xs text-slate-500">
                          {user.lock.until > now
                            ? t.settings.lockedUntil(dates.time(user.lock.until))
                            : t.settings.lockedFailures(user.lock.failures)}
                        </span>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={unlock.isPending && unlock.variables === user.id}
                          onClick={() => lift(user)}
                        >
                          <LockOpen className="h-3.5 w-3.5" aria-hidden />
                          {t.settings.unlock}
                        </Button>
                      </span>
                    )}
                  </div>
                  <div className="flex gap-2 md:justify-end">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={reset.isPending && reset.variables === user.id}
                      onClick={() => sendReset(user)}
                    >
                      <Mail className="h-3.5 w-3.5" aria-hidden />
                      {t.settings.reset}
                    </Button>
                    {user.active ? (
                      <Button variant="outline" size="sm" className="text-rose-700" disabled={self} onClick={() => setDeactivating(user)}>
                        {t.settings.deactivate}
                      </Button>
                    ) : (
                      <Button variant="success" size="sm" disabled={setActive.isPending} onClick={() => changeActive(user, true)}>
                        {t.settings.activate}
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        </Card>
      )}
      <Card className="p-4">
        <ul className="grid gap-3 text-sm sm:grid-cols-2">
          {ROLE_OPTIONS.map((r) => (
            <li key={r.value}>
              <p className="font-semibold text-slate-800">{r.label}</p>
              <p className="text-slate-600">{r.description}</p>
            </li>
          ))}
        </ul>
      </Card>
      <AddUserDialog open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={deactivating !== null}
        title={t.settings.confirmDeactivateTitle}
        message={deactivating ? t.settings.confirmDeactivate(deactivating.displayName) : ''}
        confirmLabel={t.settings.deactivate}
        danger
        busy={setActive.isPending}
        onConfirm={() => deactivating && changeActive(deactivating, false)}
        onClose={() => setDeactivating(null)}
      />
    </div>
  );
}
