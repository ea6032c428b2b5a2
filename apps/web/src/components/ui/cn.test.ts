import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BADGE_CLASSES, BADGE_TONES } from './badge.tsx';
import { BUTTON_CLASSES, BUTTON_SIZES, BUTTON_VARIANTS } from './button.tsx';
import { CARD_CLASSES } from './card.tsx';
import { cn, withClasses } from './cn.ts';

describe('cn', () => {
  it('joins and drops empty parts', () => {
    expect(cn('a', false, null, undefined, 'b')).toBe('a b');
  });
  it('lets the later of two clashing utilities win', () => {
    expect(cn('h-10 px-4 text-sm', 'h-12 text-base')).toBe('px-4 h-12 text-base');
    expect(cn('max-w-md rounded-2xl', 'sm:max-w-2xl max-w-sm')).toBe('rounded-2xl sm:max-w-2xl max-w-sm');
    expect(cn('bg-white text-slate-900', 'bg-slate-900 text-white')).toBe('bg-slate-900 text-white');
  });
  it('keeps utilities of different purpose or variant', () => {
    expect(cn('text-xs text-rose-700 text-center')).toBe('text-xs text-rose-700 text-center');
    expect(cn('h-10 sm:h-8 hover:bg-slate-100 bg-white')).toBe('h-10 sm:h-8 hover:bg-slate-100 bg-white');
    expect(cn('border border-slate-300 border-l-4 border-l-emerald-500 border-dashed')).toBe(
      'border border-slate-300 border-l-4 border-l-emerald-500 border-dashed',
    );
    expect(cn('p-4 px-2 py-0.5')).toBe('p-4 px-2 py-0.5');
    expect(cn('gap-2 gap-x-4 min-h-28 m-2')).toBe('gap-2 gap-x-4 min-h-28 m-2');
    expect(cn('bg-white/95', 'bg-slate-900/80')).toBe('bg-slate-900/80');
  });
  it('tells arbitrary text sizes from colours', () => {
    expect(cn('text-[12px] text-black', 'text-[14px]')).toBe('text-black text-[14px]');
  });
  it('treats arbitrary variants and values as one class', () => {
    expect(cn('[&_h2]:text-white text-slate-900', 'md:grid-cols-[minmax(0,2fr)_auto] grid-cols-1')).toBe(
      '[&_h2]:text-white text-slate-900 md:grid-cols-[minmax(0,2fr)_auto] grid-cols-1',
    );
    expect(cn('[overflow-wrap:anywhere] font-bold')).toBe('[overflow-wrap:anywhere] font-bold');
  });
  it('keeps the last display utility', () => {
    expect(cn('flex', 'hidden lg:flex')).toBe('hidden lg:flex');
  });
  it('resolves conflicts across shorthand and conditional parts', () => {
    expect(cn('px-2', 'p-4')).toBe('p-4');
    expect(cn('ring-2 ring-rose-500', { 'ring-emerald-500': true, 'opacity-50': false })).toBe('ring-2 ring-emerald-500');
  });
});

describe('withClasses', () => {
  it('leaves out tailwind-merge when there is no override, and merges an override as cn does', () => {
    expect(withClasses('h-10 px-4', 'mt-2')).toBe('h-10 px-4 mt-2');
    expect(withClasses('h-10 px-4', undefined, 'h-12')).toBe('px-4 h-12');
    expect(withClasses('h-10 px-4', 'mt-2', 'mt-4 h-12')).toBe('px-4 mt-4 h-12');
  });

  // Without an override a component's classes are used as they are: they must be what cn would give.
  it('every variant of the shared components is free of clashes', () => {
    const own = [
      CARD_CLASSES,
      ...Object.values(BADGE_TONES).map((tone) => `${BADGE_CLASSES} ${tone}`),
      ...Object.values(BUTTON_VARIANTS).flatMap((variant) =>
        Object.values(BUTTON_SIZES).map((size) => `${BUTTON_CLASSES} ${variant} ${size}`),
      ),
    ];
    for (const classes of own) expect(cn(classes)).toBe(classes);
  });

  it('every `adds` in the app sets nothing its card or badge sets', () => {
    const owners: Record<string, string[]> = {
      Card: [CARD_CLASSES],
      Badge: Object.values(BADGE_TONES).map((tone) => `${BADGE_CLASSES} ${tone}`),
    };
    const root = fileURLToPath(new URL('../../', import.meta.url));
    let checked = 0;
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.tsx')) continue;
      const source = readFileSync(join(root, file), 'utf8');
      for (const [, component, attributes] of source.matchAll(/<(\w+)\b([^>]*?\badds=[^>]*)>/gs)) {
        const adds = /\badds="([^"]*)"/.exec(attributes!)?.[1];
        expect(adds, `${file}: <${component}> takes adds as a plain string`).toBeDefined();
        expect(owners[component!], `${file}: <${component}> has no adds`).toBeDefined();
        for (const own of owners[component!]!) expect(cn(own, adds), `${file}: ${adds}`).toBe(`${own} ${adds}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });
});
