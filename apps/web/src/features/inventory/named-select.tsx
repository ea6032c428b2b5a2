import { Label } from '../../components/ui/input.tsx';
import { SELECT } from './insumos-tab.tsx';

/** A label over a plain select of named things (warehouses, insumos); `blank` adds a first, empty choice. */
export function NamedSelect({
  id,
  label,
  items,
  value,
  onChange,
  blank,
  className,
}: {
  id: string;
  label: string;
  items: readonly { id: string; name: string }[];
  value: string;
  onChange: (id: string) => void;
  blank?: string;
  className?: string;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className={SELECT} value={value} onChange={(e) => onChange(e.target.value)}>
        {blank !== undefined && <option value="">{blank}</option>}
        {items.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </div>
  );
}
