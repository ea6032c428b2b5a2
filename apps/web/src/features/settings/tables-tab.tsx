// Placeholder: owned by another feature engineer; the settings page shows it as a tab.
export function TablesTab() {
  return null;
}
