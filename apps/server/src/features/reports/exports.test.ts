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
  taxes: {
    groups: [
      { treatment: 'iva16', rateBp: 1600, base: 100_000, tax: 16_000, amount: 116_000 },
      { treatment: 'iva8', rateBp: 800, base: 6_904, tax: 552, amount: 7_456 },
    ],
    base: 106_904,
    tax: 16_552,
    amount: 123_456,
    derived: false,
  },
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
    expect(book.worksheets).toHaveLength(8);
    const products = book.getWorksheet('Productos')!;
    expect(products.getCell('A2').value).toBe(`'=HYPERLINK("x")`);
    expect(products.getCell('D2').value).toBe(1234.56);
    expect(products.getCell('D2').numFmt).toBe(MXN_FORMAT);
    expect(products.getCell('C2').numFmt).not.toBe(MXN_FORMAT);
    expect(book.getWorksheet('Ventas por hora')!.getCell('A2').value).toBe('03:00');
    // Ventas netas, IVA by rate, the total with taxes, the tips apart: base + IVA = total to the centavo.
    const taxes = book.getWorksheet('Impuestos')!;
    const rows = taxes
      .getSheetValues()
      .slice(2)
      .map((r) => (r as unknown[]).slice(1, 3));
    expect(rows).toEqual([
      ['Ventas netas', 1069.04],
      ['IVA 16 %', 160],
      ['IVA 8 %', 5.52],
      ['Ventas con impuestos', 1234.56],
      ['Propinas (no causan IVA)', 0],
      ['Total cobrado', 1234.56],
    ]);
    expect(taxes.getCell('B3').numFmt).toBe(MXN_FORMAT);
  });
});
