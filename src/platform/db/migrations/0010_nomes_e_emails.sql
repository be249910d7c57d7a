-- Names a customer or the operator chooses (customers', people's, tokens') are shown on the operator's terminal,
-- in pages and e-mails: no C0/C1 control character (ESC and OSC sequences, tabs, line breaks), no line or
-- paragraph separator, no bidi embedding, override, isolate or mark. The same class as UNSAFE_NAME_CHARACTER in
-- src/platform/lib/chosen-name.ts, which the stores check first with clear words; this is the floor under them. NOT VALID: a row
-- written before this migration is not re-checked (the CLI escapes what it prints, so an old one comes out inert),
-- every new or changed row is.
ALTER TABLE clientes ADD CONSTRAINT clientes_nome_imprimivel
  CHECK (nome !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]') NOT VALID;
ALTER TABLE usuarios ADD CONSTRAINT usuarios_nome_imprimivel
  CHECK (nome !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]') NOT VALID;
ALTER TABLE tokens ADD CONSTRAINT tokens_nome_imprimivel
  CHECK (nome !~ '[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]') NOT VALID;

-- E-mail addresses are kept in Unicode NFC (src/platform/lib/email-address.ts normalizes what is typed at invitation and login),
-- so `josé@…` typed with a combining accent and with a precomposed é is one address. Addresses stored before are
-- normalized here, customer by customer (the row policies admit a change only inside the customer's own context),
-- unless the normalized spelling already belongs to someone: two accounts that differ only so stay as they are,
-- for the operator to resolve, and the constraint is NOT VALID so that they may.
DO $$
DECLARE
  cliente uuid;
BEGIN
  FOR cliente IN SELECT DISTINCT u.cliente_id FROM usuarios u WHERE u.email IS NOT NFC NORMALIZED LOOP
    PERFORM set_config('app.cliente_id', cliente::text, true);
    UPDATE usuarios u SET email = normalize(u.email, NFC)
     WHERE u.cliente_id = cliente AND u.email IS NOT NFC NORMALIZED
       AND NOT EXISTS (SELECT 1 FROM usuarios o WHERE o.email = normalize(u.email, NFC));
  END LOOP;
  PERFORM set_config('app.cliente_id', '', true);
END
$$;
ALTER TABLE usuarios ADD CONSTRAINT usuarios_email_nfc CHECK (email IS NFC NORMALIZED) NOT VALID;

-- Re-issuing an invitation (`usuarios reenviar-convite`) ends the links sent before at once by bringing their
-- expiry to now: the runtime role may change `expira_em`, and only ever to shorten it, so no UPDATE (a bug, an
-- injected statement) lengthens a link's life.
CREATE FUNCTION convite_so_encurta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.expira_em > OLD.expira_em THEN
    RAISE EXCEPTION 'convites.expira_em so diminui' USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER convites_so_encurta BEFORE UPDATE OF expira_em ON convites FOR EACH ROW EXECUTE FUNCTION convite_so_encurta();
GRANT UPDATE (expira_em) ON convites TO fct_servico;
