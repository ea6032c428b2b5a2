export function PanelPage() {
  return <h1 className="text-2xl font-bold">Panel de pedidos</h1>;
}
