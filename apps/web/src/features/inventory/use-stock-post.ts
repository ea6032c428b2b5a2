import { useQueryClient } from '@tanstack/react-query';
import { errorMessage, type ResponseSchema } from '../../lib/api.ts';
import { useKeyedWrite } from './inventory-api.ts';
import { INV } from './texts.ts';
import { toast } from './inv-toast.ts';

/**
 * A stock move posted with its Idempotency-Key: on success its notice, the form cleared, and the
 * inventory read again; a failure says why in a notice and leaves the form as typed.
 */
export function useStockPost(prefix: string) {
  const qc = useQueryClient();
  const write = useKeyedWrite(prefix);
  return async <T>(schema: ResponseSchema<T>, path: string, body: unknown, done: { message: string; clear: () => void }) => {
    try {
      await write(schema, 'POST', path, body);
      toast.success(done.message);
      done.clear();
      await qc.invalidateQueries({ queryKey: ['inventory'] });
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
}
