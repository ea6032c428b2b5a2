import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { isValidPin, sanitizePinInput } from '@comanda/domain';
import type { Role } from '@comanda/contract';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { ROLE_OPTIONS } from './role-labels.ts';
import { useUserMutations } from './users-api.ts';
import { FormError } from '../../components/ui/form-error.tsx';

/** Creates a real account; the person gets an e-mailed link to choose a password. */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { create } = useUserMutations();
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('waiter');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setDisplayName('');
    setEmail('');
    setRole('waiter');
    setPin('');
    setError(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pin !== '' && !isValidPin(pin)) {
      setError(t.settings.pinFormat);
      return;
    }
    setError(null);
    const body = { displayName: displayName.trim(), email: email.trim(), role, ...(pin ? { pin } : {}) };
    create.mutate(body, {
      onSuccess: ({ user, inviteSent }) => {
        if (inviteSent) toast.success(t.settings.inviteSent(user.email));
        else toast.warning(t.settings.inviteNotSent);
        reset();
        onClose();
      },
      onError: (err) => {
        const message = errorMessage(err, t.settings.userCreateError);
        setError(message);
        toast.error(message);
      },
    });
  };

  const selected = ROLE_OPTIONS.find((r) => r.value === role);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      locked={create.isPending}
      title={t.settings.addUserTitle}
      variant="sheet"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>
            {t.app.cancel}
          </Button>
          <Button type="submit" form="add-user-form" variant="accent" disabled={create.isPending}>
            {create.isPending ? t.settings.creating : t.settings.create}
          </Button>
        </>
      }
    >
      <form id="add-user-form" onSubmit={submit} className="space-y-3">
        <div>
          <Label htmlFor="user-name">{t.settings.displayName}</Label>
          <Input
            id="user-name"
            required
            maxLength={120}
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            data-autofocus
          />
        </div>
        <div>
          <Label htmlFor="user-email">{t.settings.email}</Label>
          <Input id="user-email" type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="user-role">{t.settings.role}</Label>
          <select
            id="user-role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          >
            {ROLE_OPTIONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          {selected && <p className="mt-1 text-xs text-slate-500">{selected.description}</p>}
        </div>
        <div>
          <Label htmlFor="user-pin">{t.settings.pinOptional}</Label>
          <Input
            id="user-pin"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={pin}
            onChange={(e) => setPin(sanitizePinInput(e.target.value))}
            className="w-32 tracking-[0.4em]"
          />
        </div>
        <p className="text-sm text-slate-500">{t.settings.addUserHint}</p>
        <FormError message={error} />
      </form>
    </Dialog>
  );
}
