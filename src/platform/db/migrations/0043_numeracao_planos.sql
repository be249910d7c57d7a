-- The per-customer numbering trigger (0029, 0036) finds the customer's highest number with max(numero), which the
-- unique index (cliente_id, numero) answers at once. But a trigger's statements are planned once per session and
-- kept: a pooled session that first numbered a row while the table was nearly empty keeps a plan that reads the
-- customer's rows one by one, and each insert then costs as much as the rows before it. A retorno of 50,000 lines
-- (50,000 entries in one session) slowed from 270 to 80 lines a second that way. Planned at each call instead, the
-- statement sees the table as it is, and reads one index entry.
ALTER FUNCTION numera_por_cliente() SET plan_cache_mode = force_custom_plan;
