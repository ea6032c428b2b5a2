/**
 * A bar's three printers (cocina, barra, caja) as a process of their own, for the benchmarks:
 * ESC/POS emulators on the ports given in PRINTER_PORTS ("cocina=9101,barra=9102,caja=9103"),
 * each decoding what it receives as a thermal printer does, away from the server's and the load
 * generator's event loops. GET /health answers once they listen; GET /count gives the tickets
 * received so far. Started by bench/lib.ts (printersFor).
 */
import { createServer } from 'node:http';
import { PrinterEmulator } from '../apps/server/src/features/printing/emulator/emulator.ts';

const devices = (process.env.PRINTER_PORTS ?? '')
  .split(',')
  .filter(Boolean)
  .map((entry) => {
    const [role, port] = entry.split('=') as [string, string];
    return new PrinterEmulator({ name: role, port: Number(port) });
  });
let printed = 0;
for (const device of devices) {
  await device.start();
  device.onTicket(() => printed++);
}

const http = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(req.url === '/count' ? { printed } : { ok: true }));
});
http.listen(Number(process.env.PORT), '127.0.0.1');

const stop = async () => {
  http.close();
  for (const device of devices) await device.stop();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
