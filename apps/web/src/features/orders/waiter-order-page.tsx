export function WaiterOrderPage() {
  return <h1 className="text-2xl font-bold">Pedido</h1>;
}
