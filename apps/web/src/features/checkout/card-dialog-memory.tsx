import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import type { CardDialogModel } from './card-dialog-state.ts';

/** What an open card dialog was showing, per order: enough to show it again after a remount. */
export type CardDialogMemory = Pick<CardDialogModel, 'sessionId' | 'terminalId' | 'resumed'>;

const MemoryContext = createContext<Map<string, CardDialogMemory> | null>(null);

/**
 * Held above the checkout screen, which remounts when the order's status changes (the card
 * approval itself, or the last part of a mixed payment): the dialog remounted with it must still
 * show '¡Pago aprobado!'. After a reload the server's live attempt brings the dialog back instead.
 */
export function CardDialogMemoryProvider({ children }: { children: ReactNode }) {
  const [memories] = useState(() => new Map<string, CardDialogMemory>());
  return <MemoryContext.Provider value={memories}>{children}</MemoryContext.Provider>;
}

/** The order's dialog memory (read once on mount) and a way to keep it current. */
export function useCardDialogMemory(orderId: string) {
  const memories = useContext(MemoryContext);
  return useMemo(
    () => ({
      recall: (): CardDialogMemory | undefined => memories?.get(orderId),
      remember: (memory: CardDialogMemory): void => void memories?.set(orderId, memory),
    }),
    [memories, orderId],
  );
}
