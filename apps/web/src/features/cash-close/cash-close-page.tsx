export function CashClosePage() {
  return <h1 className="text-2xl font-bold">Cierre de Caja</h1>;
}
