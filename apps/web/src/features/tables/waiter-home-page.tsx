export function WaiterHomePage() {
  return <h1 className="text-2xl font-bold">Mesas</h1>;
}
