// The role the service (and so every test) serves as, and what the migrations give it: no superuser, no
// BYPASSRLS, nothing owned, no other role; row security forced where a customer's data lives; the narrow
// SECURITY DEFINER functions that find one credential before its customer is known; the audit trail append-only.
import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { sql } from 'drizzle-orm'
import { withTenant } from '../../../src/platform/tenancy/tenancy.ts'
import { createSession } from '../../../src/modules/credentials/sessions/store.ts'
import { tokenHash } from '../../../src/modules/credentials/token-format.ts'
import { inviteUser } from '../../../src/modules/credentials/users/store.ts'
import { queryRows } from '../../../src/platform/db/database.ts'
import { RUNTIME_ROLE } from '../../../src/platform/db/runtime-role.ts'
import { activeUser, customer, dbError, operatorNow, operatorToken } from '../../helpers/credentials.ts'
import { asOwner } from '../../helpers/database.ts'
import { useTestDatabase } from '../../helpers/fixture.ts'

const DEFINERS = ['autentica_token', 'autentica_sessao', 'autentica_login', 'autentica_convite', 'operador_clientes', 'operador_cliente_do_token',
  'purga_chaves_idempotencia', 'desagio_pendente', 'cobrancas_a_registrar', 'retornos_a_aplicar',
  'instrucoes_a_enviar', 'webhook_reserva', 'confirmacao_por_token', 'confirmacao_responde', 'registro_pedidos_a_enviar', 'registro_pedido_do_protocolo']
const CUSTOMER_TABLES = ['clientes', 'usuarios', 'convites', 'tokens', 'sessoes', 'auditoria_cliente', 'chaves_idempotencia',
  'cedentes', 'cedente_contas', 'sacados', 'feriados', 'produtos', 'produto_versoes', 'operacoes', 'titulos', 'cotacoes', 'desembolsos', 'lancamentos',
  'lancamento_linhas', 'razao_totais', 'lancamentos_manuais', 'operacao_termos', 'contas_cobranca', 'cobrancas',
  'apropriacoes_desagio', 'retornos', 'retorno_linhas', 'recompras', 'recompra_titulos', 'cobranca_instrucoes', 'remessas', 'remessa_itens',
  'eventos', 'webhooks', 'webhook_entregas', 'webhook_tentativas', 'confirmacoes', 'registro_pedidos', 'registro_eventos']

/**
 * What the runtime role may do, table by table, exactly: a migration that grants more (an UPDATE on the ledger, a
 * DELETE of a quote) or less changes this list in the same commit, where a reviewer sees it. A column list is a
 * grant on those columns alone (on top of the table's): the ledger, the audit trail and the quotes take no UPDATE.
 */
const GRANTS: Record<string, string[]> = {
  // A customer's day of deságio is recorded once and never changed (migration 0037).
  apropriacoes_desagio: ['INSERT SELECT'],
  auditoria: ['INSERT SELECT'],
  auditoria_cliente: ['INSERT SELECT'],
  cedente_contas: ['DELETE INSERT SELECT', 'UPDATE(confirmada_em confirmada_por_usuario_id)'],
  cedentes: ['INSERT SELECT',
    'UPDATE(atualizado_em email estado limite_centavos motivo_isencao municipio_ibge nome_fantasia perfil_iof razao_social '
      + 'simples_declaracao_sha256 simples_declarado_em telefone uf)'],
  chaves_idempotencia: ['INSERT SELECT UPDATE'],
  clientes: ['INSERT SELECT', 'UPDATE(documento estado estado_em)'],
  contas_contabeis: ['SELECT'],
  contato: ['INSERT SELECT UPDATE'],
  // A collection account is never deleted; its bank, agência, conta and carteira never change (migration 0035); who last
  // changed where its money goes is kept, for the confirmation (0046).
  contas_cobranca: ['INSERT SELECT',
    'UPDATE(ativa atualizada_em chave_pix confirmada_em confirmada_por_usuario_id convenio layout_cnab nome pendente_por_usuario_ids proxima_remessa '
    + 'proximo_nosso_numero transporte)'],
  // A charge is never deleted, and what it charges never changes: only the bank's registration is written (migration 0036),
  // and the due date a confirmed extension gives it, with the barcode that carries it (0044).
  cobrancas: ['INSERT SELECT',
    'UPDATE(atualizado_em banco_resposta codigo_barras estado linha_digitavel pix_copia_e_cola pix_location registro_erro registro_proxima_em '
    + 'registro_tentativas vencimento)'],
  // An instruction is never deleted and what it asks never changes: only its sending and the bank's answer (migration 0040).
  cobranca_instrucoes: ['INSERT SELECT', 'UPDATE(atualizado_em banco_resposta erro estado lancamento_id proxima_em tentativas)'],
  convites: ['INSERT SELECT', 'UPDATE(expira_em usado_em)'],
  cotacoes: ['INSERT SELECT'],
  desembolsos: ['INSERT SELECT',
    'UPDATE(aprovado_em aprovado_por_usuario_id atualizado_em estado id_transacao motivo_falha motivo_recusa pago_em recusado_em recusado_por_usuario_id)'],
  dpop_jti: ['DELETE INSERT SELECT'],
  entrega_tentativa: ['INSERT SELECT'],
  execucoes_tarefa: ['DELETE INSERT SELECT', 'UPDATE(contagem erro resultado terminada_em)'],
  exposicoes: ['SELECT'],
  feriados: ['DELETE INSERT SELECT'],
  instalacao: ['SELECT'],
  iof_aliquotas: ['INSERT SELECT'],
  iof_vigencias: ['SELECT'],
  lancamento_linhas: ['INSERT SELECT'],
  lancamentos: ['INSERT SELECT'],
  manutencao: ['INSERT SELECT UPDATE'],
  operacoes: ['INSERT SELECT',
    'UPDATE(aceita_em assinado_em atualizado_em cancelada_em cotacao_aceita cotacao_versao estado motivo_cancelamento signatarios termo_sha256)'],
  outbox: ['INSERT SELECT UPDATE'],
  produto_versoes: ['INSERT SELECT'],
  produtos: ['INSERT SELECT', 'UPDATE(versao_atual)'],
  // A customer's ledger total: read, never written, by the runtime role (the owner's trigger writes it).
  razao_totais: ['SELECT'],
  // A buy-back's títulos and amounts never change; only its settlement (paid, or compensated by an operation) (migration 0042).
  // A buy-back open is paid, compensated or cancelled (0047): its títulos' rows then stop being live, never the other way.
  recompras: ['INSERT SELECT', 'UPDATE(atualizado_em cancelada_em cancelamento_lancamento_id estado id_transacao motivo_cancelamento operacao_id '
    + 'pagamento_lancamento_id pago_em)'],
  recompra_titulos: ['INSERT SELECT', 'UPDATE(ativa)'],
  // A retorno's file and lines: what the bank said never changes; only the progress and each line's outcome (migration 0039).
  retornos: ['INSERT SELECT', 'UPDATE(aplicadas concluido_em estado ignoradas)'],
  retorno_linhas: ['INSERT SELECT',
    'UPDATE(aplicada_em cobranca_id desagio_reconhecido_centavos detalhe estornada_em lancamento_id motivo principal_centavos resultado titulo_id)'],
  // The address its remessa prints (migration 0041).
  sacados: ['INSERT SELECT', 'UPDATE(atualizado_em bairro cep cidade complemento email estado limite_centavos logradouro municipio_ibge '
    + 'nome_fantasia numero razao_social telefone uf)'],
  // A remessa sent is a fact: never changed, never deleted (migration 0041).
  remessas: ['INSERT SELECT'],
  remessa_itens: ['INSERT SELECT'],
  schema_migracoes: ['SELECT'],
  // Events and a delivery's tries are facts: written, never changed. An endpoint is marked deleted, never deleted; a
  // delivery's progress alone changes (migration 0048).
  eventos: ['INSERT SELECT'],
  webhook_tentativas: ['INSERT SELECT'],
  webhooks: ['INSERT SELECT', 'UPDATE(ativo atualizado_em desativado_em descricao eventos excluido_em falhando_desde motivo_desativacao '
    + 'segredo_anterior_ate segredo_anterior_cifrado segredo_cifrado url)'],
  webhook_entregas: ['INSERT SELECT', 'UPDATE(atualizado_em entregue_em estado proxima_em tentativas ultimo_erro ultimo_status)'],
  sessoes: ['INSERT SELECT', 'UPDATE(encerrada_em expira_ociosa_em ultimo_acesso_em)'],
  titulos: ['DELETE INSERT SELECT',
    'UPDATE(atualizado_em confirmacao_estado desagio_apropriado_centavos desagio_centavos desagio_dias estado registro_estado registro_situacao '
      + 'saldo_centavos vencimento)'],
  // A confirmation is kept as it was made; only its state moves (superseded by a newer one). The sacado's answer is
  // written by confirmacao_responde (SECURITY DEFINER), not by the role (migration 0049).
  confirmacoes: ['INSERT SELECT', 'UPDATE(atualizado_em estado)'],
  // The registry's outbox moves; its mirror of what the registry said is never changed (migration 0050).
  registro_pedidos: ['INSERT SELECT', 'UPDATE(atualizado_em concluido_em erro estado protocolo proxima_em resposta tentativas)'],
  registro_eventos: ['INSERT SELECT'],
  tokens: ['INSERT SELECT', 'UPDATE(primeiro_uso_em revogado_em ultimo_uso_em ultimo_uso_ip)'],
  // The password's hash is written, never read back: it is checked by autentica_login (SECURITY DEFINER).
  usuarios: ['INSERT', 'SELECT(ativado_em cliente_id criado_em email estado id nome papel)', 'UPDATE(ativado_em estado nome papel senha_hash)'],
  // A proposal is decided once (migration 0033's trigger); its lines and its proposer never change.
  lancamentos_manuais: ['INSERT SELECT',
    'UPDATE(atualizado_em confirmado_em confirmado_por_usuario_id estado lancamento_id motivo_recusa recusado_em recusado_por_usuario_id)'],
  // The signed term's file: replaced before the formalization, never deleted.
  operacao_termos: ['INSERT SELECT', 'UPDATE(conteudo enviado_em nome_arquivo sha256 tamanho_bytes tipo)'],
}

describe('the runtime role', () => {
  const tdb = useTestDatabase()
  const run = <R>(text: string) => queryRows<R>(tdb.db.orm, sql.raw(text))
  const asOwnerRows = <R>(text: string, params: unknown[] = []) => tdb.db.ownerTransaction((tx) => tx.query<R>(text, params))

  it(`serves every query as ${RUNTIME_ROLE}: no superuser, no BYPASSRLS, owns nothing, belongs to no role`, async () => {
    const [me] = await run<{ current_user: string, rolsuper: boolean, rolbypassrls: boolean, owned: number, roles: number }>(`
      SELECT current_user, r.rolsuper, r.rolbypassrls,
             (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) + (SELECT count(*)::int FROM pg_proc WHERE proowner = r.oid)
               + (SELECT count(*)::int FROM pg_namespace WHERE nspowner = r.oid) AS owned,
             (SELECT count(*)::int FROM pg_auth_members WHERE member = r.oid) AS roles
        FROM pg_roles r WHERE r.rolname = current_user`)
    assert.deepEqual(me, { current_user: RUNTIME_ROLE, rolsuper: false, rolbypassrls: false, owned: 0, roles: 0 })
    await assert.rejects(run('CREATE TABLE intrusa (id int)'), dbError('42501', /permission denied for schema public/))
    await assert.rejects(run('ALTER TABLE tokens NO FORCE ROW LEVEL SECURITY'), dbError('42501', /must be owner/))
  })

  it('every table holding a customer\'s data has row security enabled and forced; every table has its grants', async () => {
    const tables = await run<{ relname: string, rls: boolean, forced: boolean, cliente: boolean, usable: boolean }>(`
      SELECT c.relname, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
             EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'cliente_id' AND NOT a.attisdropped) AS cliente,
             has_any_column_privilege('${RUNTIME_ROLE}', c.oid, 'SELECT') AS usable
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`)
    // The outbox names the customer an invitation is for, but it is the service's own queue, drained for every
    // customer by the worker; no customer reads it, and an invitation's content is erased once sent or expired.
    const queues = ['outbox']
    const guarded = tables.filter((t) => (t.cliente && !queues.includes(t.relname)) || t.relname === 'clientes')
    assert.deepEqual(guarded.map((t) => t.relname).sort(), [...CUSTOMER_TABLES].sort())
    for (const t of guarded) assert.ok(t.rls && t.forced, `${t.relname}: ENABLE and FORCE ROW LEVEL SECURITY`)
    for (const t of tables) assert.ok(t.usable, `${t.relname}: the runtime role has its grants (a new table needs them in its migration)`)
  })

  it('has exactly the grants of the list above, table by table and column by column; no TRUNCATE anywhere', async () => {
    const tables = await asOwnerRows<{ t: string, p: string }>(`
      SELECT table_name AS t, string_agg(privilege_type, ' ' ORDER BY privilege_type) AS p FROM information_schema.role_table_grants
       WHERE grantee = $1 AND table_schema = 'public' GROUP BY 1 ORDER BY 1`, [RUNTIME_ROLE])
    const columns = await asOwnerRows<{ t: string, p: string, c: string }>(`
      SELECT c.table_name AS t, c.privilege_type AS p, string_agg(c.column_name, ' ' ORDER BY c.column_name) AS c
        FROM information_schema.column_privileges c
       WHERE c.grantee = $1 AND c.table_schema = 'public' AND NOT EXISTS (SELECT 1 FROM information_schema.role_table_grants g
             WHERE g.grantee = c.grantee AND g.table_schema = c.table_schema AND g.table_name = c.table_name AND g.privilege_type = c.privilege_type)
       GROUP BY 1, 2 ORDER BY 1, 2`, [RUNTIME_ROLE])
    const found: Record<string, string[]> = {}
    for (const r of tables) (found[r.t] ??= []).push(r.p)
    for (const r of columns) (found[r.t] ??= []).push(`${r.p}(${r.c})`)
    assert.deepEqual(found, GRANTS)
  })

  it('every customer table has the policy that keeps its rows to the current customer, for every role', async () => {
    const policies = await asOwnerRows<{ t: string, roles: string, cmd: string, qual: string, check: string | null }>(`
      SELECT tablename AS t, roles::text AS roles, cmd, qual, with_check AS check FROM pg_policies
       WHERE schemaname = 'public' AND policyname = 'cliente_atual' ORDER BY 1`)
    assert.deepEqual(policies.map((p) => p.t), [...CUSTOMER_TABLES].sort())
    for (const p of policies) {
      assert.equal(p.roles, '{public}', p.t)
      assert.equal(p.cmd, 'ALL', p.t)
      // The same condition for the rows read and the rows written: a row for another customer is refused.
      assert.match(p.qual, /^\(?\(?(NOT \()?(cliente_id|id) (=|IS DISTINCT FROM) \(NULLIF\(current_setting\('app\.cliente_id'::text, true\), ''::text\)\)::uuid\)\)?$/, p.t)
      assert.ok(p.check === null || p.check === p.qual, `${p.t}: WITH CHECK ${p.check}`)
    }
  })

  it('the SECURITY DEFINER functions: a fixed search_path, owned by the schema\'s owner, EXECUTE for the runtime role only', async () => {
    type Fn = { proname: string, definer: boolean, config: string[] | null, owner: string, public_exec: boolean, runtime_exec: boolean }
    const fns = await asOwnerRows<Fn>(`
      SELECT p.proname, p.prosecdef AS definer, p.proconfig AS config, pg_get_userbyid(p.proowner) AS owner,
             EXISTS (SELECT 1 FROM aclexplode(p.proacl) x WHERE x.grantee = 0) AS public_exec,
             has_function_privilege('${RUNTIME_ROLE}', p.oid, 'EXECUTE') AS runtime_exec
        FROM pg_proc p WHERE p.proname = ANY($1) ORDER BY p.proname`, [DEFINERS])
    const [{ owner: tableOwner } = { owner: '' }] = await asOwnerRows<{ owner: string }>("SELECT tableowner AS owner FROM pg_tables WHERE tablename = 'tokens'")
    assert.deepEqual(fns.map((f) => f.proname), [...DEFINERS].sort())
    for (const f of fns) {
      assert.deepEqual([f.definer, f.owner, f.public_exec, f.runtime_exec], [true, tableOwner, false, true], f.proname)
      assert.ok(f.config?.some((c) => c.startsWith('search_path=')), `${f.proname} sets its search_path`)
    }
  })

  describe('each finds one credential and returns only what its caller needs', () => {
    const fixture = { clienteId: '', tokenId: '', token: '', email: '', sessionId: '', sessionToken: '', inviteToken: '' }
    before(async () => {
      fixture.clienteId = (await customer(tdb.db)).id
      const user = await activeUser(tdb.db, fixture.clienteId)
      fixture.email = user.email
      const made = await operatorToken(tdb.db, fixture.clienteId)
      fixture.tokenId = made.id
      fixture.token = made.token
      const who = { clienteId: fixture.clienteId, usuarioId: user.id }
      const session = await withTenant(tdb.db, fixture.clienteId, (tx) => createSession(tx, who, operatorNow()))
      fixture.sessionId = session.session.id
      fixture.sessionToken = session.token
      const invited = await withTenant(tdb.db, fixture.clienteId, (tx) => inviteUser(tx, {
        clienteId: fixture.clienteId, email: `convidada-${fixture.clienteId.slice(0, 8)}@cliente.com.br`, nome: 'Convidada',
      }, operatorNow()))
      fixture.inviteToken = invited.invitation.token
    })

    it('autentica_token: by the token\'s digest, with no customer set; the digest itself is not returned', async () => {
      const rows = await run<Record<string, unknown>>(`SELECT * FROM autentica_token('${tokenHash(fixture.token)}')`)
      assert.equal(rows.length, 1)
      assert.deepEqual(Object.keys(rows[0]!).sort(),
        ['cliente_estado', 'cliente_id', 'dpop_jkt', 'escopos', 'expira_em', 'id', 'primeiro_uso_em', 'revogado_em', 'ultimo_uso_em', 'ultimo_uso_ip',
          'usuario_estado', 'usuario_id', 'usuario_papel'])
      assert.deepEqual([rows[0]!.id, rows[0]!.cliente_id, rows[0]!.cliente_estado], [fixture.tokenId, fixture.clienteId, 'ativo'])
      assert.deepEqual(await run(`SELECT * FROM autentica_token('${'0'.repeat(64)}')`), [])
      assert.deepEqual(await run("SELECT * FROM autentica_token('%')"), [], 'no pattern matching')
    })

    it('autentica_sessao, autentica_convite, autentica_login: one row of a few fields each', async () => {
      const session = await run<Record<string, unknown>>(`SELECT * FROM autentica_sessao('${tokenHash(fixture.sessionToken)}')`)
      assert.deepEqual(Object.keys(session[0]!).sort(),
        ['cliente_estado', 'cliente_id', 'encerrada_em', 'expira_em', 'expira_ociosa_em', 'id', 'ultimo_acesso_em', 'usuario_estado', 'usuario_id',
          'usuario_papel'])
      assert.equal(session[0]!.id, fixture.sessionId)
      const invitation = await run<Record<string, unknown>>(`SELECT * FROM autentica_convite('${tokenHash(fixture.inviteToken)}')`)
      assert.deepEqual(Object.keys(invitation[0]!).sort(), ['cliente_estado', 'cliente_id', 'expira_em', 'id', 'usado_em', 'usuario_id'])
      const login = await run<Record<string, unknown>>(`SELECT * FROM autentica_login('  ${fixture.email.toUpperCase()} ')`)
      assert.deepEqual(Object.keys(login[0]!).sort(), ['cliente_estado', 'cliente_id', 'id', 'senha_hash', 'usuario_estado'])
      assert.match(String(login[0]!.senha_hash), /^\$argon2id\$/)
      assert.deepEqual(await run("SELECT * FROM autentica_login('ninguem@cliente.com.br')"), [])
      assert.deepEqual(await run("SELECT * FROM autentica_login('%')"), [])
    })

    it('the operator\'s two: the customers alone, and one token\'s customer by the token\'s id', async () => {
      const customers = await run<Record<string, unknown>>('SELECT * FROM operador_clientes()')
      assert.ok(customers.some((c) => c.id === fixture.clienteId))
      assert.deepEqual(Object.keys(customers[0]!).sort(), ['criado_em', 'documento', 'estado', 'estado_em', 'id', 'nome'])
      assert.deepEqual(await run(`SELECT operador_cliente_do_token('${fixture.tokenId}') AS c`), [{ c: fixture.clienteId }])
      assert.deepEqual(await run(`SELECT operador_cliente_do_token('${crypto.randomUUID()}') AS c`), [{ c: null }])
    })
  })

  it('the customer\'s audit trail refuses UPDATE, DELETE and TRUNCATE: no grant for the service, a trigger for the owner', async () => {
    const clienteId = (await customer(tdb.db)).id
    for (const statement of ["UPDATE auditoria_cliente SET acao = 'cliente.reativado'", 'DELETE FROM auditoria_cliente', 'TRUNCATE auditoria_cliente']) {
      await assert.rejects(withTenant(tdb.db, clienteId, (tx) => tx.execute(sql.raw(statement))), dbError('42501', /permission denied/), statement)
      await assert.rejects(asOwner(tdb.db, statement), /somente insercao/, statement)
    }
    const rows = await asOwnerRows<{ acao: string }>('SELECT acao FROM auditoria_cliente WHERE cliente_id = $1', [clienteId])
    assert.deepEqual(rows.map((r) => r.acao), ['cliente.criado'])
  })

  it('a revocation, a first use, a used invitation and an ended session are for good, even for the owner', async () => {
    const clienteId = (await customer(tdb.db)).id
    const { id } = await operatorToken(tdb.db, clienteId)
    await withTenant(tdb.db, clienteId, (tx) => tx.execute(sql`UPDATE tokens SET revogado_em = now(), primeiro_uso_em = now() WHERE id = ${id}`))
    await assert.rejects(withTenant(tdb.db, clienteId, (tx) => tx.execute(sql`UPDATE tokens SET revogado_em = NULL WHERE id = ${id}`)),
      dbError('23000', /tokens\.revogado_em e definitivo/))
    await assert.rejects(asOwner(tdb.db, `UPDATE tokens SET revogado_em = NULL WHERE id = '${id}'`), /tokens\.revogado_em e definitivo/)
    await assert.rejects(asOwner(tdb.db, `UPDATE tokens SET primeiro_uso_em = now() + interval '1 day' WHERE id = '${id}'`), /primeiro_uso_em e definitivo/)
    await asOwner(tdb.db, `UPDATE tokens SET nome = 'renomeado' WHERE id = '${id}'`)
  })
})
