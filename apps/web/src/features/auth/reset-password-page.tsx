import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { ResetPasswordBodySchema, type ResetPasswordBody, type ResetTokenInfo, OkSchema, ResetTokenInfoSchema } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { BrandMark } from '../../components/brand-mark.tsx';
import { errorMessage, get, post } from '../../lib/api.ts';
import { usePublicConfig } from '../../lib/config.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { FormError } from '../../components/ui/form-error.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';

const MIN_LENGTH = 8;

/** Opened from the e-mailed link (invitation or reset): checks the link, then sets the password. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const config = usePublicConfig();
  const info = useQuery({
    queryKey: ['reset-token', token],
    queryFn: () => get(ResetTokenInfoSchema, `/api/auth/reset-password/${encodeURIComponent(token)}`),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

  let body;
  if (token === '' || info.isError) body = <InvalidLink />;
  else if (info.isPending) body = <Spinner label={t.resetPassword.checking} />;
  else body = <PasswordForm token={token} info={info.data} />;

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-slate-900 p-4">
      <Card className="w-full max-w-sm p-6">
        <div className="mb-5 flex flex-col items-center gap-3 text-center">
          <BrandMark logoUrl={config.data?.logoUrl} size="lg" />
          <p className="font-semibold text-slate-700">{config.data?.name || t.app.fallbackTitle}</p>
        </div>
        {body}
      </Card>
    </main>
  );
}

function InvalidLink() {
  return (
    <div className="space-y-4 text-center">
      <FormError message={t.resetPassword.invalid} />
      <Link to="/login" className="inline-block text-sm font-medium text-slate-700 underline underline-offset-4">
        {t.resetPassword.toLogin}
      </Link>
    </div>
  );
}

function PasswordForm({ token, info }: { token: string; info: ResetTokenInfo }) {
  const save = useMutation({ mutationFn: (body: ResetPasswordBody) => post(OkSchema, '/api/auth/reset-password', body) });
  const form = useZodForm({
    initial: { password: '', confirm: '' },
    schema: ResetPasswordBodySchema,
    toInput: ({ password }) => ({ token, password }),
    // Too short is the contract's rule (checked first); then the two fields must match.
    check: ({ password, confirm }) => (password !== confirm ? t.resetPassword.mismatch : null),
    onValid: (body) => save.mutate(body, { onError: (err) => form.setError(errorMessage(err, t.resetPassword.invalid)) }),
  });

  if (save.isSuccess) {
    return (
      <div className="space-y-4 text-center">
        <CheckCircle2 className="mx-auto h-10 w-10 text-emerald-600" aria-hidden />
        <p role="status" className="text-slate-700">
          {t.resetPassword.success}
        </p>
        <Link
          to="/login"
          className="inline-flex h-12 w-full items-center justify-center rounded-lg bg-brand-500 font-medium text-slate-950 hover:bg-brand-600"
        >
          {t.resetPassword.toLogin}
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={form.onSubmit} className="space-y-4">
      <div className="text-center">
        <h1 className="text-xl font-bold">{info.purpose === 'invite' ? t.resetPassword.inviteTitle : t.resetPassword.title}</h1>
        <p className="mt-1 text-sm text-slate-500">{t.resetPassword.forAccount(info.email)}</p>
      </div>
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={info.email} readOnly hidden />
      <TextField
        id="new-password"
        label={t.resetPassword.password}
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_LENGTH}
        value={form.values.password}
        onValue={(v) => form.set('password', v)}
      />
      <TextField
        id="confirm-password"
        label={t.resetPassword.confirm}
        type="password"
        autoComplete="new-password"
        required
        value={form.values.confirm}
        onValue={(v) => form.set('confirm', v)}
      />
      <FormError message={form.error} />
      <Button type="submit" variant="accent" size="lg" className="w-full" disabled={save.isPending}>
        {save.isPending ? t.resetPassword.submitting : t.resetPassword.submit}
      </Button>
    </form>
  );
}
