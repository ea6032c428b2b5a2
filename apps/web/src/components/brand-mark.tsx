import { useState } from 'react';
import { Receipt } from 'lucide-react';

/** The business logo, or our mark when none is configured or it fails to load. */
export function BrandMark({ logoUrl, size = 'md' }: { logoUrl?: string | undefined; size?: 'md' | 'lg' }) {
  const [failed, setFailed] = useState(false);
  const box = size === 'lg' ? 'h-16 w-16' : 'h-9 w-9';
  if (logoUrl && !failed) return <img src={logoUrl} alt="" className={`${box} rounded-xl object-cover`} onError={() => setFailed(true)} />;
  return (
    <div className={`${box} flex items-center justify-center rounded-xl bg-brand-500 text-slate-950`}>
      <Receipt className={size === 'lg' ? 'h-8 w-8' : 'h-5 w-5'} aria-hidden />
    </div>
  );
}
