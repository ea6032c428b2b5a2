/** One PL/pgSQL or SQL function of the server's: its name and the CREATE OR REPLACE statement that makes it. */
export interface SqlFunction {
  name: string;
  text: string;
}

/** A text as an SQL string literal, for constants of the domain's written into a function's text. */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A list of texts as an SQL text array. */
export function textArray(values: readonly string[]): string {
  return `ARRAY[${values.map(literal).join(', ')}]::text[]`;
}
