export function TicketsPage() {
  return <h1 className="text-2xl font-bold">Tickets</h1>;
}
