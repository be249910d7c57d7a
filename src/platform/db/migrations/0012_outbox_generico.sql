-- One outbox for every message (issue 18): a row holds its message as its producer rendered it when it queued
-- it, and the delivery worker sends it knowing nothing of what it is about. A contact is now rendered by the
-- contact form, as an invitation always was by its module (docs/decisions.md, "One outbox for every message").

-- How a row travels. The worker keeps a registry of transports keyed by it and fails, visibly and per the retry
-- policy, a row whose transport it lacks. `http` (webhooks, release II) is a migration replacing this named CHECK.
ALTER TABLE outbox ADD COLUMN transporte text NOT NULL DEFAULT 'smtp';
ALTER TABLE outbox ADD CONSTRAINT outbox_transporte_check CHECK (transporte IN ('smtp'));

-- An e-mail's headers besides From, To, Subject, Date and Message-ID, as its producer set them:
-- {"replyTo": {"name": …, "address": …}, "extra": {"X-…": "…"}}. Part of the content: erased with it.
ALTER TABLE outbox ADD COLUMN cabecalhos jsonb;

-- A kind is its producer's name for its messages (audit rows, listings); the worker never branches on it, so a
-- new kind needs no migration, only a name of this shape. The default stays for the previous release's inserts.
ALTER TABLE outbox DROP CONSTRAINT outbox_tipo_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_tipo_check CHECK (tipo ~ '^[a-z][a-z0-9_]{0,39}$');

-- 0006's rule (a contact's row holds no content) goes first: the rows below are given theirs.
ALTER TABLE outbox DROP CONSTRAINT outbox_mensagem_check;

-- The text of a contact queued by the previous release, which stored no content in its row: the fields as the
-- contact e-mail lists them, under the subject's code (its label lives in the configuration, not here), text part
-- only. Used by this migration for the rows already queued, and by the trigger below while that release runs.
CREATE FUNCTION outbox_contato_legado(c contato, OUT assunto_email text, OUT texto text, OUT cabecalhos jsonb)
LANGUAGE sql STABLE AS $$
  SELECT '[Contato] ' || c.assunto || ' — ' || c.nome || ' (' || c.protocolo || ')',
         concat_ws(E'\n',
           'Protocolo: ' || c.protocolo,
           'Assunto: ' || c.assunto,
           'Nome: ' || coalesce(nullif(regexp_replace(c.nome, '[\r\n]+', ' ', 'g'), ''), '—'),
           'E-mail: ' || coalesce(nullif(regexp_replace(c.email, '[\r\n]+', ' ', 'g'), ''), '—'),
           'Empresa: ' || coalesce(nullif(regexp_replace(c.empresa, '[\r\n]+', ' ', 'g'), ''), '—'),
           'Telefone: ' || coalesce(nullif(regexp_replace(c.telefone, '[\r\n]+', ' ', 'g'), ''), '—'),
           'Site: ' || coalesce(nullif(regexp_replace(c.site, '[\r\n]+', ' ', 'g'), ''), '—'),
           'Recebido em: ' || to_char(c.criado_em AT TIME ZONE 'America/Sao_Paulo', 'DD/MM/YYYY, HH24:MI:SS')
             || ' (horário de Brasília) — ' || to_char(c.criado_em AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'Request ID: ' || c.request_id,
           '',
           'Mensagem:',
           c.mensagem,
           '',
           '-- ',
           'Responda a este e-mail para falar diretamente com o remetente.'),
         jsonb_build_object('replyTo', jsonb_build_object('name', c.nome, 'address', c.email),
                            'extra', jsonb_build_object('X-Contato-Protocolo', c.protocolo))
$$;

-- While the previous release still runs beside this one (a migration keeps it working): its contact rows arrive
-- without content, and are rendered here so this release's worker can send them; this release's contact rows
-- arrive without `contato_id`, and are given it so that release's worker can render them from the contact. Dropped,
-- with `contato_id`, by the first migration of the release after this one.
CREATE FUNCTION outbox_contato_transicao() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tipo = 'contato' AND NEW.contato_id IS NULL THEN
    NEW.contato_id := (SELECT id FROM contato WHERE protocolo = NEW.protocolo);
  ELSIF NEW.tipo = 'contato' AND NEW.texto IS NULL AND NEW.conteudo_apagado_em IS NULL THEN
    SELECT l.assunto_email, l.texto, l.cabecalhos, c.request_id
      INTO NEW.assunto_email, NEW.texto, NEW.cabecalhos, NEW.request_id
      FROM contato c, outbox_contato_legado(c) l WHERE c.id = NEW.contato_id;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER outbox_contato_transicao BEFORE INSERT ON outbox
  FOR EACH ROW EXECUTE FUNCTION outbox_contato_transicao();
-- The trigger runs as the role that inserts (the service's), which reads the contact through the function: that
-- role's alone, no one else's.
REVOKE ALL ON FUNCTION outbox_contato_legado(contato) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION outbox_contato_legado(contato) TO fct_servico;

-- The rows already queued. Every row gets the request id it was made for (a contact's was on the contact).
UPDATE outbox o SET request_id = c.request_id FROM contato c WHERE o.contato_id = c.id AND o.request_id IS NULL;
-- A contact still to be sent (or re-queued), or kept in the sandbox, gets its content while the contact has it.
UPDATE outbox o SET assunto_email = l.assunto_email, texto = l.texto, cabecalhos = l.cabecalhos
  FROM contato c, outbox_contato_legado(c) l
 WHERE o.contato_id = c.id AND o.tipo = 'contato' AND o.texto IS NULL AND c.dados_apagados_em IS NULL
   AND o.estado IN ('pendente', 'enviando', 'falhou', 'sandbox');
-- The others hold none, as a message sent over SMTP holds none from now on: their content is marked gone.
UPDATE outbox SET conteudo_apagado_em = coalesce(enviado_em, atualizado_em)
 WHERE texto IS NULL AND conteudo_apagado_em IS NULL;

-- Every row is its message: its parts until they are erased, and the request it was made for. The expiry is the
-- producer's choice (a contact has none; an invitation, its link's).
ALTER TABLE outbox ADD CONSTRAINT outbox_mensagem_check CHECK (
  request_id IS NOT NULL AND (conteudo_apagado_em IS NOT NULL OR (assunto_email IS NOT NULL AND texto IS NOT NULL)));

-- The contact form's retention and listing find a contact's row by its protocolo (the link a contact and its
-- message share), no longer by `contato_id`: the UNIQUE index of `protocolo` answers them.
