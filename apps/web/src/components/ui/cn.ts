/**
 * Joins class names; when two classes set the same thing (h-10 then h-12, bg-white then
 * bg-slate-900, text-xs then text-sm) the later one wins. Without this a component's
 * `className` override lost or won depending on where Tailwind happened to emit each rule.
 * Covers the utilities our components override; anything unknown is kept as is.
 */
export function cn(...parts: (string | false | null | undefined)[]): string {
  const joined = parts.filter(Boolean).join(' ');
  // Screens render the same few combinations again and again: remember them.
  const known = memo.get(joined);
  if (known !== undefined) return known;
  const merged = merge(joined);
  if (memo.size > 2000) memo.clear();
  memo.set(joined, merged);
  return merged;
}

const memo = new Map<string, string>();

function merge(joined: string): string {
  const classes = joined.split(/\s+/).filter(Boolean);
  const seen = new Set<string>();
  const kept: string[] = [];
  for (let i = classes.length - 1; i >= 0; i--) {
    const cls = classes[i]!;
    const key = conflictKey(cls);
    if (key !== null) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(cls);
  }
  return kept.reverse().join(' ');
}

const SIZES = '(?:xs|sm|base|lg|xl|[2-9]xl)';
const COLOR = '(?:(?:inherit|current|transparent|black|white|[a-z]+-\\d{2,3})(?:\\/\\d+)?|\\[[^\\]]+\\])';

/** Same-purpose utilities share a group; order matters (first match decides). */
const GROUPS: [string, RegExp][] = [
  ['display', /^(?:block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents)$/],
  ['position', /^(?:static|fixed|absolute|relative|sticky)$/],
  // text-[12px] is a size, text-[#123] a colour.
  ['text-size', new RegExp(`^text-(?:${SIZES}|\\[(?:length:)?[\\d.]+(?:px|rem|em)?\\])$`)],
  ['text-align', /^text-(?:left|center|right|justify|start|end)$/],
  ['text-color', new RegExp(`^text-${COLOR}$`)],
  ['bg-color', new RegExp(`^bg-${COLOR}$`)],
  ['font-weight', /^font-(?:thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/],
  ['border-style', /^border-(?:solid|dashed|dotted|double|none)$/],
  ['border-color', new RegExp(`^border-${COLOR}$`)],
  ['rounded', new RegExp(`^rounded(?:-(?:none|sm|md|lg|xl|2xl|3xl|full))?$`)],
  ['shadow', /^shadow(?:-(?:none|xs|sm|md|lg|xl|2xl))?$/],
  ['flex-direction', /^flex-(?:row|col)(?:-reverse)?$/],
  ['items', /^items-/],
  ['justify', /^justify-(?:start|end|center|between|around|evenly|stretch)$/],
];
/** Spacing and sizing: the prefix itself is the group (px-3 and px-5 clash, px and p do not). */
const PREFIXED =
  /^-?(gap-x|gap-y|gap|inset-x|inset-y|inset|min-h|min-w|max-h|max-w|px|py|pt|pb|pl|pr|p|mx|my|mt|mb|ml|mr|m|h|w|size|z|opacity|grid-cols|col-span|leading|tracking|top|bottom|left|right)-./;

function conflictKey(cls: string): string | null {
  // Variants (md:, hover:, [&_h2]:) are part of the key: md:h-8 never clashes with h-10.
  let depth = 0;
  let split = -1;
  for (let i = 0; i < cls.length; i++) {
    const ch = cls[i];
    if (ch === '[') depth++;
    else if (ch === ']') depth--;
    else if (ch === ':' && depth === 0) split = i;
  }
  const variant = cls.slice(0, split + 1);
  const utility = cls.slice(split + 1).replace(/^!/, '');
  for (const [group, pattern] of GROUPS) if (pattern.test(utility)) return variant + group;
  const prefixed = PREFIXED.exec(utility);
  return prefixed ? variant + prefixed[1]! : null;
}
