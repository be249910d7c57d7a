-- An X-Request-ID a client sent is the client's claim, not the service's record: anyone may send any id, another
-- request's included. An audit row keeps the service's own id in `request_id` (a UUID it made, also in the access
-- log line of that request) and the client's beside it, in `request_id_cliente`, under the syntax the service
-- accepts one in (src/platform/http/request-id.ts). Rows written before this keep what they had in `request_id`.
ALTER TABLE auditoria_cliente ADD COLUMN request_id_cliente text CHECK (request_id_cliente ~ '^[A-Za-z0-9._-]{1,128}$');
