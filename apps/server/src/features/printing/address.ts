import { isLoopbackHost, printerAddressProblem } from '@comanda/domain';
import type { PrinterRole } from '../../model/printing/documents.ts';

/** PRINTERS ('cocina=tcp://192.168.1.50:9100,…') as the printers it provisions (port 9100 when not given). */
export function parsePrintersEnv(value: string): { role: PrinterRole; host: string; port: number }[] {
  return value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const [role, url] = entry.split('=') as [PrinterRole, string];
      const { hostname, port } = new URL(url);
      return { role, host: hostname, port: port ? Number(port) : 9100 };
    });
}

export const PRINTER_ADDRESS_REFUSED = 'Dirección de impresora no permitida: corrígela en Configuración › Impresoras';

/**
 * Checked before every connection, so a row saved before the rule (or written by hand) reaches
 * nothing: the admin's rule (printerAddressProblem), or loopback for the server's own emulators
 * and for the PRINTERS addresses given by whoever starts the server.
 */
export function mayConnect(printer: { host: string; port: number; emulated: number }, printersEnv: string | undefined): boolean {
  if (printerAddressProblem(printer.host, Number(printer.port)) === null) return true;
  if (printer.emulated === 1 && isLoopbackHost(printer.host)) return true;
  return parsePrintersEnv(printersEnv ?? '').some((p) => p.host === printer.host && p.port === Number(printer.port));
}
