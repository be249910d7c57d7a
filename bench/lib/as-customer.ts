// Seeding a customer's rows as the service writes them: as the runtime role, in the customer's tenant (row security
// applies, the database's own checks run at commit), in one transaction; then the tables' statistics, so the measured
// statements are planned on what was written.
import pg from 'pg'

export async function asCustomer<T>(dbUrl: string, clienteId: string, work: (c: pg.Client) => Promise<T>, analyze: string[] = []): Promise<T> {
  const client = new pg.Client({ connectionString: dbUrl })
  await client.connect()
  try {
    await client.query('BEGIN')
    await client.query('SET LOCAL ROLE fct_servico')
    await client.query(`SELECT set_config('app.cliente_id', $1, true)`, [clienteId])
    const out = await work(client)
    await client.query('COMMIT')
    if (analyze.length) await client.query(`ANALYZE ${analyze.join(', ')}`)
    return out
  } finally {
    await client.end()
  }
}
