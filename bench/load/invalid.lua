-- wrk: the 422 path of the contact form (every field wrong at once).
wrk.method = "POST"
wrk.path = "/api/site/contato"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"nome":"M","email":"maria@empresa","mensagem":"Ola"}'
