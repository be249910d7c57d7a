-- Contacts judged to come from bots (honeypot filled, form posted too fast, missing or forged form token) are
-- kept, with the reason, so an operator can see them, but never get an outbox row: they are never e-mailed.
ALTER TABLE contato ADD COLUMN spam text CHECK (spam IN ('honeypot', 'rapido', 'token'));
-- `contatos listar --spam` reads the recent spam only.
CREATE INDEX contato_spam_idx ON contato (criado_em) WHERE spam IS NOT NULL;
