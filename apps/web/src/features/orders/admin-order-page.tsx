export function AdminOrderPage() {
  return <h1 className="text-2xl font-bold">Pedido</h1>;
}
