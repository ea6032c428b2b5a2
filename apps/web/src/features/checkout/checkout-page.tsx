export function CheckoutPage() {
  return <h1 className="text-2xl font-bold">Cobro</h1>;
}
