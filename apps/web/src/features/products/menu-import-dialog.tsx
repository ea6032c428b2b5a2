import { useState } from 'react';
import { toast } from 'sonner';
import type { MenuImportResult } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useMenuImport } from './products-api.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';

/**
 * Choose a CSV, read what it would do (nothing is written yet), then "Importar". A file with any
 * bad row lists every error by line and cannot be imported.
 */
export function MenuImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const menuImport = useMenuImport();
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<MenuImportResult | null>(null);
  // One key per chosen file: a retry of "Importar" for the same file can never import it twice.
  const [key, setKey] = useState(() => newIdempotencyKey('menu'));

  const close = () => {
    setCsv(null);
    setPreview(null);
    onClose();
  };

  const choose = async (file: File | undefined) => {
    setPreview(null);
    setCsv(null);
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch {
      toast.error(t.menuCsv.readError);
      return;
    }
    setCsv(text);
    setKey(newIdempotencyKey('menu'));
    menuImport.mutate(
      { csv: text, dryRun: true, key: newIdempotencyKey('menu-preview') },
      { onSuccess: setPreview, onError: (err) => toast.error(errorMessage(err, t.menuCsv.error)) },
    );
  };

  const confirm = () => {
    if (csv === null) return;
    menuImport.mutate(
      { csv, dryRun: false, key },
      {
        onSuccess: (result) => {
          if (result.errors.length > 0) return setPreview(result);
          toast.success(t.menuCsv.done(result.created, result.updated));
          close();
        },
        onError: (err) => toast.error(errorMessage(err, t.menuCsv.error)),
      },
    );
  };

  const changes = preview ? preview.created + preview.updated : 0;
  return (
    <Dialog
      open={open}
      onClose={close}
      title={t.menuCsv.title}
      locked={menuImport.isPending}
      footer={
        <>
          <CancelButton onClick={close} disabled={menuImport.isPending} />
          <Button
            variant="accent"
            onClick={confirm}
            disabled={menuImport.isPending || !preview || preview.errors.length > 0 || changes === 0}
          >
            {t.menuCsv.confirm}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <p className="text-sm text-slate-600">{t.menuCsv.help}</p>
        <div>
          <Label htmlFor="menu-csv-file">{t.menuCsv.file}</Label>
          <input
            id="menu-csv-file"
            type="file"
            accept=".csv,text/csv"
            className="block w-full text-sm file:mr-3 file:h-11 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-4 file:font-medium"
            onChange={(e) => void choose(e.target.files?.[0])}
          />
        </div>
        <div aria-live="polite" className="min-h-6 text-sm">
          {menuImport.isPending && menuImport.variables?.dryRun ? (
            <p className="text-slate-600">{t.menuCsv.reading}</p>
          ) : preview && preview.errors.length > 0 ? (
            <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 p-3 text-rose-800">
              <p className="font-medium">{t.menuCsv.errorsTitle}</p>
              <ul className="mt-1 list-disc space-y-0.5 pl-5">
                {preview.errors.map((e) => (
                  <li key={`${e.line}-${e.message}`}>{t.menuCsv.line(e.line, e.message)}</li>
                ))}
              </ul>
            </div>
          ) : preview ? (
            <p className="font-medium text-slate-800">
              {changes === 0 ? t.menuCsv.nothing : t.menuCsv.preview(preview.created, preview.updated, preview.unchanged)}
            </p>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
