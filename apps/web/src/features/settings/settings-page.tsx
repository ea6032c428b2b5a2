import { lazy, Suspense, useState } from 'react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { BusinessTab } from './business-tab.tsx';
import { MenuOrderCard } from './menu-order-card.tsx';
import { DrawerControlCard } from './drawer-control-card.tsx';
import { UsersTab } from './users-tab.tsx';
import { TablesTab } from './tables-tab.tsx';
import { TerminalTab } from './terminal-tab.tsx';

// Loaded only when opened: the rest of Configuración does not carry it.
const DevicesTab = lazy(() => import('./devices-tab.tsx'));
const PrintersTab = lazy(() => import('./printers-tab.tsx'));
const SharedDevicesTab = lazy(() => import('./shared-devices-tab.tsx'));
const BackupsTab = lazy(() => import('./backups-tab.tsx'));
const VoidReasonsTab = lazy(() => import('./void-reasons-tab.tsx'));
const FiscalTab = lazy(() => import('./fiscal-tab.tsx'));

type Tab = 'business' | 'fiscal' | 'users' | 'tables' | 'terminal' | 'printers' | 'devices' | 'shared-devices' | 'backups' | 'void-reasons';

const TABS: { value: Tab; label: string }[] = [
  { value: 'business', label: t.settings.businessTab },
  { value: 'fiscal', label: t.fiscal.tab },
  { value: 'users', label: t.settings.usersTab },
  { value: 'tables', label: t.settings.tablesTab },
  { value: 'terminal', label: t.settings.terminalTab },
  { value: 'printers', label: t.printers.tab },
  { value: 'devices', label: t.devices.tab },
  { value: 'shared-devices', label: t.sharedDevices.tab },
  { value: 'backups', label: t.backups.tab },
  { value: 'void-reasons', label: t.voids.reasonsTab },
];

export function SettingsPage() {
  const [tab, setTab] = useState<Tab>('business');
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">{t.settings.title}</h1>
      <Tabs tabs={TABS} value={tab} onChange={setTab} label={t.settings.title} />
      <div role="tabpanel">
        {tab === 'business' && (
          <div className="space-y-4">
            <BusinessTab />
            <MenuOrderCard />
            <DrawerControlCard />
          </div>
        )}
        {tab === 'fiscal' && (
          <Suspense fallback={<Spinner />}>
            <FiscalTab />
          </Suspense>
        )}
        {tab === 'users' && <UsersTab />}
        {tab === 'tables' && <TablesTab />}
        {tab === 'terminal' && <TerminalTab />}
        {tab === 'printers' && (
          <Suspense fallback={<Spinner />}>
            <PrintersTab />
          </Suspense>
        )}
        {tab === 'devices' && (
          <Suspense fallback={<Spinner />}>
            <DevicesTab />
          </Suspense>
        )}
        {tab === 'shared-devices' && (
          <Suspense fallback={<Spinner />}>
            <SharedDevicesTab />
          </Suspense>
        )}
        {tab === 'void-reasons' && (
          <Suspense fallback={<Spinner />}>
            <VoidReasonsTab />
          </Suspense>
        )}
        {tab === 'backups' && (
          <Suspense fallback={<Spinner />}>
            <BackupsTab />
          </Suspense>
        )}
      </div>
    </div>
  );
}
