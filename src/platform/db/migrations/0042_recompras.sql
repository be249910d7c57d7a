-- Buy-backs (recompras, issue 33; produto.md §3): the cedente takes back títulos it sold, for their open balance with
-- the juros and multa they owe. Why decides whether it may: a defect of the título's origin always; the sacado's
-- default only where the product carries the cedente's coobrigação (a FIDC or securitizadora with recourse): in plain
-- factoring the courts hold a buy-back for default void (STJ, REsp 1.711.412/MG), and the database refuses it too.
--   * the buy-back's entry debits the cedente's conta gráfica (the cedente owes it), credits the receivables by the
--     balances and the income by the late charges, and recognises the deságio the títulos had not earned;
--   * the cedente pays it (a payment recorded against it), or it is compensated in the cedente's next operation (its
--     quote's compensacoes_centavos, marked at the acceptance that uses it): once either way.

-- Whether the product's títulos carry the cedente's coobrigação (recourse against the cedente for the sacado's default).
ALTER TABLE produto_versoes ADD COLUMN coobrigacao boolean NOT NULL DEFAULT false;


ALTER TABLE lancamentos DROP CONSTRAINT lancamentos_origem_tipo_check,
  ADD CONSTRAINT lancamentos_origem_tipo_check
    CHECK (origem_tipo IN ('operacao', 'desembolso', 'lancamento_manual', 'apropriacao_desagio', 'retorno', 'recompra', 'instrucao'));

CREATE TABLE recompras (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cliente_id uuid NOT NULL REFERENCES clientes (id),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  cedente_id uuid NOT NULL,
  motivo text NOT NULL CHECK (motivo IN ('vicio_de_origem', 'inadimplencia')),
  descricao text NOT NULL CHECK (length(descricao) BETWEEN 3 AND 500),
  forma text NOT NULL CHECK (forma IN ('pagamento', 'compensacao')),
  -- Set by the product versions of the títulos' operations: the default's buy-back needs every one to carry it.
  coobrigacao boolean NOT NULL,
  data date NOT NULL,
  principal_centavos bigint NOT NULL CHECK (principal_centavos > 0 AND principal_centavos <= 9007199254740991),
  encargos_centavos bigint NOT NULL CHECK (encargos_centavos >= 0 AND encargos_centavos <= 9007199254740991),
  valor_centavos bigint NOT NULL CHECK (valor_centavos = principal_centavos + encargos_centavos),
  estado text NOT NULL DEFAULT 'aberta' CHECK (estado IN ('aberta', 'paga', 'compensada')),
  lancamento_id uuid NOT NULL,
  id_transacao text CHECK (length(id_transacao) BETWEEN 1 AND 100),
  pago_em timestamptz,
  pagamento_lancamento_id uuid,
  operacao_id uuid,
  criado_em timestamptz NOT NULL DEFAULT now(),
  atualizado_em timestamptz NOT NULL DEFAULT now(),
  -- The rule the courts hold, held here as well.
  CONSTRAINT recompras_inadimplencia_com_coobrigacao CHECK (motivo <> 'inadimplencia' OR coobrigacao),
  CHECK ((estado = 'paga') = (pago_em IS NOT NULL AND id_transacao IS NOT NULL AND pagamento_lancamento_id IS NOT NULL)),
  CHECK ((estado = 'compensada') = (operacao_id IS NOT NULL)),
  CHECK (estado <> 'paga' OR forma = 'pagamento'),
  CHECK (estado <> 'compensada' OR forma = 'compensacao'),
  FOREIGN KEY (cliente_id, cedente_id) REFERENCES cedentes (cliente_id, id),
  FOREIGN KEY (cliente_id, lancamento_id) REFERENCES lancamentos (cliente_id, id),
  FOREIGN KEY (cliente_id, pagamento_lancamento_id) REFERENCES lancamentos (cliente_id, id),
  FOREIGN KEY (cliente_id, operacao_id) REFERENCES operacoes (cliente_id, id),
  UNIQUE (cliente_id, id)
);
CREATE INDEX recompras_lista_idx ON recompras (cliente_id, seq);
-- One transfer pays one buy-back.
CREATE UNIQUE INDEX recompras_id_transacao_unico ON recompras (cliente_id, id_transacao) WHERE id_transacao IS NOT NULL;
-- What the cedente's next operation compensates.
CREATE INDEX recompras_a_compensar_idx ON recompras (cliente_id, cedente_id) WHERE estado = 'aberta' AND forma = 'compensacao';

CREATE TABLE recompra_titulos (
  cliente_id uuid NOT NULL,
  recompra_id uuid NOT NULL,
  titulo_id uuid NOT NULL,
  saldo_centavos bigint NOT NULL CHECK (saldo_centavos > 0),
  juros_centavos bigint NOT NULL CHECK (juros_centavos >= 0),
  multa_centavos bigint NOT NULL CHECK (multa_centavos >= 0),
  desagio_reconhecido_centavos bigint NOT NULL CHECK (desagio_reconhecido_centavos >= 0),
  PRIMARY KEY (cliente_id, recompra_id, titulo_id),
  -- A título is bought back once.
  UNIQUE (cliente_id, titulo_id),
  FOREIGN KEY (cliente_id, recompra_id) REFERENCES recompras (cliente_id, id),
  FOREIGN KEY (cliente_id, titulo_id) REFERENCES titulos (cliente_id, id)
);

SELECT aplica_tenancy('recompras');
SELECT aplica_tenancy('recompra_titulos');

GRANT SELECT, INSERT ON recompras, recompra_titulos TO fct_servico;
GRANT UPDATE (estado, id_transacao, pago_em, pagamento_lancamento_id, operacao_id, atualizado_em) ON recompras TO fct_servico;

-- A quote deducts the buy-backs it compensates from the net it pays: its sum is then the face value's parts and them.
ALTER TABLE cotacoes ADD COLUMN compensacoes_centavos bigint NOT NULL DEFAULT 0
  CHECK (compensacoes_centavos BETWEEN 0 AND 9007199254740991);
ALTER TABLE cotacoes DROP CONSTRAINT cotacoes_check,
  ADD CONSTRAINT cotacoes_soma CHECK (valor_face_centavos = desagio_centavos + ad_valorem_centavos + tarifas_centavos + tac_centavos + iof_centavos
    + valor_liquido_centavos + compensacoes_centavos);
