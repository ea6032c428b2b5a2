import { forwardRef, type InputHTMLAttributes } from 'react';
import { Input } from './input.tsx';

type PinInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'type' | 'inputMode' | 'autoComplete' | 'maxLength'
> & {
  id: string;
  value: string;
  onValue: (value: string) => void;
  /** 4 for a user's PIN; some screens take up to 12 and let the server judge. */
  maxLength?: number;
  /** Drops anything that is not a digit as it is typed or pasted. */
  digitsOnly?: boolean;
};

/** A masked PIN box with the numeric keypad on phones, never offered to the browser's autofill. */
export const PinInput = forwardRef<HTMLInputElement, PinInputProps>(function PinInput(
  { id, value, onValue, maxLength = 4, digitsOnly = false, ...props },
  ref,
) {
  return (
    <Input
      ref={ref}
      {...props}
      id={id}
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={maxLength}
      value={value}
      onChange={(e) => onValue(digitsOnly ? e.target.value.replace(/\D/g, '') : e.target.value)}
    />
  );
});
