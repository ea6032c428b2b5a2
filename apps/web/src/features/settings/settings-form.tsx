import type { FormEvent, ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

/** A settings tab while its values load: a spinner, then the error with a retry, then the form with what was read. */
export function SettingsLoader<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <ErrorState message={t.settings.loadError} onRetry={() => void query.refetch()} />;
  return children(query.data);
}

/** A settings form's card: its fields, the form's one error, and the save button, busy while it saves. */
export function SettingsFormCard({
  onSubmit,
  error,
  saving,
  children,
}: {
  onSubmit: (e: FormEvent) => void;
  error: string | null;
  saving: boolean;
  children: ReactNode;
}) {
  return (
    <Card className="max-w-2xl p-5">
      <form onSubmit={onSubmit} className="space-y-4">
        {children}
        <FormError message={error} />
        <div className="flex justify-end">
          <Button type="submit" variant="accent" disabled={saving}>
            {saving ? t.settings.saving : t.settings.saveChanges}
          </Button>
        </div>
      </form>
    </Card>
  );
}
