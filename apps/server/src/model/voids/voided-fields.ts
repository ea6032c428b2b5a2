/** Who voided units or a whole order, why, and which admin PIN authorised it. */
export interface VoidStamp {
  user: { id: string; displayName: string };
  now: number;
  reason: string | null;
  note: string | null;
  authorizer: { id: string; displayName: string } | null;
}

/**
 * The columns that turn an item row into a voided one: the same stamp for one line's units
 * (void-item) and for every line of a cancelled order (cancel-order), so the tickets history,
 * the reports and the comandas read both alike.
 */
export function voidedFields(s: VoidStamp) {
  return {
    is_deleted: 1,
    deleted_by: s.user.id,
    deleted_by_name: s.user.displayName,
    deleted_at: s.now,
    updated_at: s.now,
    void_reason: s.reason,
    void_note: s.note,
    void_authorized_by: s.authorizer?.id ?? null,
    void_authorized_by_name: s.authorizer?.displayName ?? null,
  } as const;
}
