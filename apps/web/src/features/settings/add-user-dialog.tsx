import { toast } from 'sonner';
import { sanitizePinInput } from '@comanda/domain';
import { CreateUserBodySchema, type Role } from '@comanda/contract';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Field } from '../../components/ui/field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { ROLE_OPTIONS } from './role-labels.ts';
import { useUserMutations } from './users-api.ts';
import { FormError } from '../../components/ui/form-error.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';

/** Creates a real account; the person gets an e-mailed link to choose a password. */
export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { create } = useUserMutations();
  const form = useZodForm({
    initial: { displayName: '', email: '', role: 'waiter' as Role, pin: '' },
    schema: CreateUserBodySchema,
    toInput: ({ displayName, email, role, pin }) => ({
      displayName: displayName.trim(),
      email: email.trim(),
      role,
      ...(pin ? { pin } : {}),
    }),
    onValid: (body) =>
      create.mutate(body, {
        onSuccess: ({ user, inviteSent }) => {
          if (inviteSent) toast.success(t.settings.inviteSent(user.email));
          else toast.warning(t.settings.inviteNotSent);
          form.reset();
          onClose();
        },
        onError: (err) => {
          const message = errorMessage(err, t.settings.userCreateError);
          form.setError(message);
          toast.error(message);
        },
      }),
  });
  const { displayName, email, role, pin } = form.values;

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
          <CancelButton onClick={onClose} disabled={create.isPending} />
          <Button type="submit" form="add-user-form" variant="accent" disabled={create.isPending}>
            {create.isPending ? t.settings.creating : t.settings.create}
          </Button>
        </>
      }
    >
      <form id="add-user-form" onSubmit={form.onSubmit} className="space-y-3">
        <Field id="user-name" label={t.settings.displayName}>
          <Input
            id="user-name"
            required
            maxLength={120}
            value={displayName}
            onChange={(e) => form.set('displayName', e.target.value)}
            data-autofocus
          />
        </Field>
        <Field id="user-email" label={t.settings.email}>
          <Input
            id="user-email"
            type="email"
            required
            autoComplete="off"
            value={email}
            onChange={(e) => form.set('email', e.target.value)}
          />
        </Field>
        <div>
          <Label htmlFor="user-role">{t.settings.role}</Label>
          <select
            id="user-role"
            value={role}
            onChange={(e) => form.set('role', e.target.value as Role)}
            className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
          >
            {ROLE_OPTIONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          {selected && <p className="mt-1 text-xs text-slate-500">{selected.description}</p>}
        </div>
        <Field id="user-pin" label={t.settings.pinOptional}>
          <Input
            id="user-pin"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={pin}
            onChange={(e) => form.set('pin', sanitizePinInput(e.target.value))}
            className="w-32 tracking-[0.4em]"
          />
        </Field>
        <p className="text-sm text-slate-500">{t.settings.addUserHint}</p>
        <FormError message={form.error} />
      </form>
    </Dialog>
  );
}
