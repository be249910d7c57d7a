-- The platform's periodic jobs (src/platform/jobs/): one row per run, so one instance of the cluster runs a due job and the
-- others see it ran, and the operator sees the last run (`npm run cli -- tarefas listar`). Platform data: no
-- customer's, no cliente_id, no row security.
--
-- A run is claimed by inserting its row (under a transaction-level advisory lock on the job's name); while it has
-- no `terminada_em` it holds the job until `valida_ate`, after which it is taken for one whose instance died.
CREATE TABLE execucoes_tarefa (
  id bigserial PRIMARY KEY,
  tarefa text NOT NULL CHECK (length(tarefa) BETWEEN 1 AND 100),
  -- Which instance ran it (host and process id).
  instancia text NOT NULL,
  iniciada_em timestamptz NOT NULL,
  valida_ate timestamptz NOT NULL CHECK (valida_ate > iniciada_em),
  terminada_em timestamptz,
  resultado text NOT NULL DEFAULT 'em_curso' CHECK (resultado IN ('em_curso', 'ok', 'falhou')),
  -- How many things the run did (rows erased…), as the job reports it.
  contagem integer,
  -- A failed run's error: its type and code, never its message (which may carry data: src/platform/lib/log-safety.ts).
  erro text CHECK (length(erro) <= 200),
  CHECK ((resultado = 'em_curso') = (terminada_em IS NULL))
);
CREATE INDEX execucoes_tarefa_tarefa_iniciada_idx ON execucoes_tarefa (tarefa, iniciada_em DESC);

-- SELECT and INSERT to claim a run; UPDATE of its outcome only; DELETE of runs past the history kept.
GRANT SELECT, INSERT, DELETE ON execucoes_tarefa TO fct_servico;
GRANT UPDATE (terminada_em, resultado, contagem, erro) ON execucoes_tarefa TO fct_servico;
GRANT USAGE ON SEQUENCE execucoes_tarefa_id_seq TO fct_servico;
