-- A message's attachments (issue 33: the boleto's PDF e-mailed to the sacado): part of its content, as its producer
-- rendered them, erased with the rest once sent or expired. Each is {"nome", "tipo", "base64"}: a file name, a media
-- type, and the bytes in base64. At most five, and 2 MB in all (a boleto's PDF is some tens of kB).
ALTER TABLE outbox ADD COLUMN anexos jsonb,
  ADD CONSTRAINT outbox_anexos_check CHECK (anexos IS NULL OR (jsonb_typeof(anexos) = 'array' AND jsonb_array_length(anexos) BETWEEN 1 AND 5
    AND octet_length(anexos::text) <= 2097152));
