-- The transaction POST /api/site/contato runs (src/modules/contact/store.ts), statement for statement, for pgbench:
-- PostgreSQL's own limit for the write path, with the same tables, indexes and triggers.
\set n random(1, 2000000000)
BEGIN;
SELECT pg_advisory_xact_lock(hashtextextended(md5(:n::text || :client_id::text), 0));
SELECT protocolo, destino FROM contato WHERE impressao = md5(:n::text || :client_id::text) AND criado_em > now() - interval '10 minutes' LIMIT 1;
INSERT INTO contato (protocolo, criado_em, assunto, destino, nome, email, mensagem, empresa, telefone, site, impressao, request_id, ip_hash)
  VALUES ('PB-' || md5(random()::text), now(), 'comercial', 'comercial@factoring.example', 'Pessoa', 'pessoa@empresa.com.br',
          'Quero conhecer a antecipacao de recebiveis.', '', '', '', md5(:n::text || :client_id::text), md5(random()::text), md5(random()::text))
  RETURNING id;
INSERT INTO outbox (tipo, protocolo, destino, request_id, assunto_email, texto, html, cabecalhos, criado_em, proxima_tentativa_em, atualizado_em)
  VALUES ('contato', (SELECT protocolo FROM contato WHERE id = currval('contato_id_seq')), 'comercial@factoring.example', md5(random()::text),
          '[Contato] Comercial e contratação — Pessoa (PB)', repeat('Quero conhecer a antecipacao de recebiveis. ', 10),
          repeat('<p>Quero conhecer a antecipacao de recebiveis.</p>', 10),
          '{"replyTo": {"name": "Pessoa", "address": "pessoa@empresa.com.br"}, "extra": {"X-Contato-Protocolo": "PB"}}', now(), now(), now());
INSERT INTO auditoria (em, acao, protocolo, assunto, request_id, ip_hash)
  VALUES (now(), 'contato.recebido', (SELECT protocolo FROM contato WHERE id = currval('contato_id_seq')), 'comercial', md5(random()::text), md5(random()::text));
COMMIT;
