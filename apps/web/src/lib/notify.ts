/**
 * What a screen says when a mutation ends, given to the mutation's hook, not to `mutate()`:
 * TanStack Query runs a hook's own callbacks even after the component that started the mutation
 * unmounted (a live event can remove it before the answer arrives); callbacks given to `mutate()`
 * are then dropped.
 */
export interface Notify<T = unknown> {
  onSuccess?: (data: T) => void;
  onError?: (error: Error) => void;
  onSettled?: () => void;
}
