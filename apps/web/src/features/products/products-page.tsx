export function ProductsPage() {
  return <h1 className="text-2xl font-bold">Productos</h1>;
}
