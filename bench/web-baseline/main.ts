/**
 * The web benchmark's baseline (bench/web.ts): a bare Vite + React page that fetches one JSON
 * and renders it as a list. Nothing of Comanda's is in it; its time at the same throttle, in the
 * same run, is what Comanda's first screen is judged against.
 */
import { createElement as h, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Item {
  id: string;
  name: string;
  total: number;
}

function List() {
  const [items, setItems] = useState<Item[] | null>(null);
  useEffect(() => {
    void fetch('/api/items')
      .then((res) => res.json() as Promise<{ items: Item[] }>)
      .then((body) => setItems(body.items));
  }, []);
  if (!items) return h('p', null, 'Cargando…');
  return h(
    'ul',
    null,
    items.map((item) => h('li', { key: item.id, 'data-testid': `item-${item.id}` }, `${item.name} — $${(item.total / 100).toFixed(2)}`)),
  );
}

createRoot(document.getElementById('root')!).render(h(List));
