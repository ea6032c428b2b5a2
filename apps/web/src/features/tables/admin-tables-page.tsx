export function AdminTablesPage() {
  return <h1 className="text-2xl font-bold">Panel de Mesas</h1>;
}
