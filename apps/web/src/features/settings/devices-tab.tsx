import { useQuery } from '@tanstack/react-query';
import { Download, Lock, Monitor, Wifi } from 'lucide-react';
import { type DeviceAddress, type DevicesInfo, DevicesInfoSchema } from '@comanda/contract';
import { Badge } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { get } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useBusinessDates } from '../../lib/dates.ts';

const DEVICES_KEY = ['devices', 'info'] as const;

/** "Conectar dispositivos": the addresses phones and tablets open, with QR codes, and the local CA when HTTPS is on. */
export default function DevicesTab() {
  const info = useQuery({ queryKey: DEVICES_KEY, queryFn: () => get(DevicesInfoSchema, '/api/devices') });
  if (info.isPending) return <Spinner />;
  if (info.isError) return <ErrorState message={t.devices.loadError} onRetry={() => void info.refetch()} />;
  const { addresses, listensOnNetwork, https } = info.data;
  // A phone opens only the network's addresses: those get the QR codes; this machine's own
  // (localhost) is listed apart, as text, since on a phone it would lead nowhere.
  const lan = addresses.filter((a) => a.kind === 'lan');
  const local = addresses.filter((a) => a.kind !== 'lan');
  return (
    <div className="space-y-4">
      {lan.length > 0 ? (
        <p className="max-w-3xl text-sm text-slate-600">{t.devices.intro}</p>
      ) : (
        <p role="status" className="max-w-3xl rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {listensOnNetwork ? t.devices.noLan : t.devices.thisMachineOnly}
        </p>
      )}
      {lan.length > 0 && (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label={t.devices.tab}>
          {lan.map((address) => (
            <AddressCard key={address.url} address={address} />
          ))}
        </ul>
      )}
      {local.length > 0 && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600" data-testid="local-addresses">
          <span className="inline-flex items-center gap-1 font-medium">
            <Monitor className="h-4 w-4" aria-hidden="true" />
            {t.devices.local}:
          </span>
          {local.map((address) => (
            <a key={address.url} href={address.url} className="inline-flex min-h-11 items-center font-mono text-slate-900 hover:underline">
              {address.url}
              {address.secure ? ` (${t.devices.secure})` : ''}
            </a>
          ))}
        </div>
      )}
      <HttpsCard https={https} />
    </div>
  );
}

function AddressCard({ address }: { address: DeviceAddress }) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(address.qrSvg)}`;
  return (
    <li>
      <Card className="flex h-full flex-col items-center gap-3 p-4 text-center">
        <img src={src} alt={t.devices.qrAlt(address.url)} width={176} height={176} className="h-44 w-44" />
        <a href={address.url} className="font-mono text-sm font-semibold break-all text-slate-900 hover:underline">
          {address.url}
        </a>
        <div className="flex flex-wrap justify-center gap-1">
          <Badge tone="success">
            <Wifi className="mr-1 h-3 w-3" aria-hidden="true" />
            {t.devices.lan}
          </Badge>
          {address.secure && (
            <Badge tone="info">
              <Lock className="mr-1 h-3 w-3" aria-hidden="true" />
              {t.devices.secure}
            </Badge>
          )}
        </div>
      </Card>
    </li>
  );
}

function HttpsCard({ https }: { https: DevicesInfo['https'] }) {
  const dates = useBusinessDates();
  return (
    <Card className="space-y-4 p-5">
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Lock className="h-5 w-5 text-slate-500" aria-hidden="true" />
        {t.devices.httpsTitle}
      </h2>
      {!https.enabled || https.port === null || !https.caPath ? (
        <p className="text-sm text-slate-600">{t.devices.httpsOff}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t.devices.httpsOn(https.port)}</p>
          <div className="flex flex-wrap items-center gap-4">
            <a
              href={https.caPath}
              className="inline-flex h-10 items-center gap-2 rounded-lg bg-slate-900 px-4 text-sm font-medium text-white hover:bg-slate-800"
            >
              <Download className="h-4 w-4" aria-hidden="true" />
              {t.devices.downloadCa}
            </a>
            {https.certificateExpiresAt !== null && (
              <span className="text-xs text-slate-500">{t.devices.expires(dates.longDate(https.certificateExpiresAt))}</span>
            )}
          </div>
          {https.caFingerprint && (
            <div className="text-xs text-slate-500">
              <span className="font-medium">{t.devices.fingerprint}: </span>
              <code className="break-all">{https.caFingerprint}</code>
            </div>
          )}
          <div className="grid gap-4 md:grid-cols-2">
            <Steps title={t.devices.androidTitle} steps={t.devices.android} />
            <Steps title={t.devices.iphoneTitle} steps={t.devices.iphone} />
          </div>
        </>
      )}
    </Card>
  );
}

function Steps({ title, steps }: { title: string; steps: readonly string[] }) {
  return (
    <section className="rounded-lg bg-slate-50 p-4">
      <h3 className="mb-2 font-semibold">{title}</h3>
      <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  );
}
