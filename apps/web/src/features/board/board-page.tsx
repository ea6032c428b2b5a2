export function BoardPage() {
  return <h1 className="text-2xl font-bold">Pendientes</h1>;
}
