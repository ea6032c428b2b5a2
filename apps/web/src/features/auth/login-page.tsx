import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ChefHat, ShieldCheck, UtensilsCrossed } from 'lucide-react';
import type { Role } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/field.tsx';
import { Card } from '../../components/ui/card.tsx';
import { BrandMark } from '../../components/brand-mark.tsx';
import { t } from '../../lib/i18n/first-screen.ts';
import { errorMessage } from '../../lib/api.ts';
import { ROLE_HOME, useLogin, useSession } from '../../lib/session.ts';
import { usePublicConfig } from '../../lib/config.ts';
import { FormError } from '../../components/ui/form-error.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSharedDevice } from '../../lib/shared-device.ts';
import { PinKeypadScreen } from './pin-keypad-screen.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';

const loginSchema = () => import('@comanda/contract').then((contract) => contract.LoginBodySchema);

export function LoginPage() {
  const session = useSession();
  const config = usePublicConfig();
  const login = useLogin();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useZodForm({
    initial: { email: '', password: '' },
    // Loaded on first use (and preloaded once the page shows): the schemas stay out of the first screen's JS.
    schema: loginSchema,
    toInput: (values) => values,
    unchecked: (values) => values,
    onValid: (body) =>
      login.mutate(body, {
        onSuccess: ({ user }) => goHome(user),
        onError: (err) => {
          const message = errorMessage(err, t.login.formFallback);
          form.setError(message);
          toast.error(message || t.login.defaultError);
        },
      }),
  });
  const device = useSharedDevice();
  useEffect(() => {
    void loginSchema().catch(() => undefined);
  }, []);
  // On an enrolled shared device the keypad comes first; "Entrar con correo" shows this form.
  const [withEmail, setWithEmail] = useState(false);

  if (session.data) return <Navigate to={ROLE_HOME[session.data.role]} replace />;

  const goHome = (user: { role: string }) => {
    if (!(user.role in ROLE_HOME)) {
      form.setError(t.login.unknownRole);
      return;
    }
    toast.success(t.login.success);
    const redirect = params.get('redirect');
    const home = ROLE_HOME[user.role as Role];
    navigate(redirect && redirect.startsWith(home.split('/').slice(0, 2).join('/')) ? redirect : home, { replace: true });
  };

  const name = config.data?.name || t.app.fallbackTitle;
  const enrolled = device.data?.enrolled === true;
  if (device.isPending)
    return (
      <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-slate-900 p-4">
        <Spinner />
      </main>
    );
  if (enrolled && !withEmail)
    return (
      <PinKeypadScreen
        appName={name}
        logoUrl={config.data?.logoUrl}
        deviceName={device.data?.name ?? null}
        onUseEmail={() => setWithEmail(true)}
        onSignedIn={goHome}
      />
    );
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-900 via-slate-800 to-slate-900 p-4">
      <Card className="w-full max-w-sm p-6">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <BrandMark logoUrl={config.data?.logoUrl} size="lg" />
          <h1 className="text-2xl font-bold">{name}</h1>
          <p className="text-sm text-slate-500">{t.login.title}</p>
        </div>
        <form onSubmit={form.onSubmit} className="space-y-4" noValidate={false}>
          <TextField
            id="email"
            label={t.login.email}
            name="email"
            type="email"
            autoComplete="username"
            required
            value={form.values.email}
            onValue={(v) => form.set('email', v)}
          />
          <TextField
            id="password"
            label={t.login.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={form.values.password}
            onValue={(v) => form.set('password', v)}
          />
          <FormError message={form.error} />
          <Button type="submit" variant="accent" size="lg" className="w-full" disabled={login.isPending}>
            {login.isPending ? t.login.submitting : t.login.submit}
          </Button>
        </form>
        {enrolled && (
          <button
            type="button"
            onClick={() => setWithEmail(false)}
            className="mt-3 flex min-h-11 w-full items-center justify-center rounded-lg text-sm font-medium text-slate-700 underline-offset-4 hover:underline"
          >
            {t.sharedDevices.usePin}
          </button>
        )}
        <div className="mt-6 border-t border-slate-200 pt-4 text-sm text-slate-600">
          <p className="mb-2 font-medium text-slate-700">{t.login.rolesLegend}</p>
          <ul className="space-y-1">
            <li className="flex items-center gap-2">
              <ShieldCheck className="h-4 w-4 text-slate-500" aria-hidden />
              {t.roles.admin}
            </li>
            <li className="flex items-center gap-2">
              <UtensilsCrossed className="h-4 w-4 text-slate-500" aria-hidden />
              {t.roles.waiter}
            </li>
            <li className="flex items-center gap-2">
              <ChefHat className="h-4 w-4 text-slate-500" aria-hidden />
              {t.roles.kitchenOrBar}
            </li>
          </ul>
          <p className="mt-3 text-xs text-slate-500">{t.login.redirectNote}</p>
        </div>
      </Card>
    </main>
  );
}
