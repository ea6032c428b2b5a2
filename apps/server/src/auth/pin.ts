import { createHmac } from 'node:crypto';
import { isValidPin } from '@comanda/domain';

/**
 * PINs are 4 digits, so any unkeyed hash is reversible by trying all 10,000. A keyed HMAC keeps
 * the spec's "a PIN identifies a user" lookup (equality on the hash); its key is never in the
 * database (auth/pin-key.ts: PIN_SECRET or DATA_DIR/pin.key), so the database or a backup alone
 * cannot test a single PIN.
 */
export interface PinHasher {
  hash(pin: string): string;
}

export function createPinHasher(secret: string): PinHasher {
  return {
    hash(pin: string): string {
      if (!isValidPin(pin)) throw new Error('invalid PIN format');
      return createHmac('sha256', secret).update(`pin:${pin}`).digest('hex');
    },
  };
}

declare module '../http/context.ts' {
  interface AppContext {
    /** The keyed PIN hash (the key from pin-key.ts). */
    pins: PinHasher;
  }
}
