import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ReportsResponseSchema } from '@comanda/contract';
import { reportSheets } from './report-sheets.ts';
import { reportsCsv } from './export-csv.ts';
import { MXN_FORMAT, reportsXlsx } from './export-xlsx.ts';

const empty = (hour: number) => ({ hour, orders: 0, total: 0, tips: 0 });
// Parsed by the contract, as the route's answer is: its money comes out branded.
const report = ReportsResponseSchema.parse({
  from: '2026-11-20',
  to: '2026-11-21',
  timezone: 'America/Mexico_City',
  dayStartHour: 3,
  totals: { orders: 1, items: 2, subtotal: 123_456, discount: 0, comp: 0, tips: 0, total: 123_456, averageTicket: 123_456 },
  byHour: Array.from({ length: 24 }, (_, i) => empty((i + 3) % 24)),
  byWeekday: Array.from({ length: 7 }, (_, weekday) => ({ weekday, days: 0, orders: 0, total: 0, tips: 0 })),
  // Names typed by staff: one looks like a formula, one has a comma and quotes.
  products: [
    { productId: 'p1', productName: '=HYPERLINK("x")', category: 'Bebida', units: 2, amount: 123_456 },
    { productId: 'p2', productName: 'Taco "grande", con todo', category: 'Comida', units: 1, amount: 5 },
  ],
  categories: [{ category: 'Bebida', units: 2, amount: 123_456 }],
  waiters: [],
  losses: { totals: [], byReason: [], byUser: [] },
  methods: [{ method: 'efectivo', payments: 1, amount: 123_456, tips: 0 }],
});

describe('report exports', () => {
  it('writes CSV money as pesos with two decimals and defuses formulas', () => {
    const lines = reportsCsv(report, reportSheets(report, 'productos')).split('\r\n');
    expect(lines[0]).toBe('\uFEFFReportes del 2026-11-20 al 2026-11-21');
    expect(lines).toContain('Producto,Categoría,Unidades,Importe');
    expect(lines).toContain(`"'=HYPERLINK(""x"")",Bebida,2,1234.56`);
    expect(lines).toContain('"Taco ""grande"", con todo",Comida,1,0.05');
    expect(lines.some((l) => l.startsWith('Meseros'))).toBe(false);
  });

  it('writes every report as its own sheet, money as MXN-formatted numbers, formulas as text', async () => {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Uint8Array.from(await reportsXlsx(report, reportSheets(report))).buffer);
    expect(book.worksheets).toHaveLength(7);
    const products = book.getWorksheet('Productos')!;
    expect(products.getCell('A2').value).toBe(`'=HYPERLINK("x")`);
    expect(products.getCell('D2').value).toBe(1234.56);
    expect(products.getCell('D2').numFmt).toBe(MXN_FORMAT);
    expect(products.getCell('C2').numFmt).not.toBe(MXN_FORMAT);
    expect(book.getWorksheet('Ventas por hora')!.getCell('A2').value).toBe('03:00');
  });
});
