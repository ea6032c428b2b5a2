import { formatMXN, type Cents } from '@comanda/domain';

export const money = (c: number): string => formatMXN(c as Cents);

const timeFmt = new Intl.DateTimeFormat('es-MX', { hour: '2-digit', minute: '2-digit' });
const dateTimeFmt = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeStyle: 'short' });

export const formatTime = (ms: number): string => timeFmt.format(new Date(ms));
export const formatDateTime = (ms: number): string => dateTimeFmt.format(new Date(ms));
