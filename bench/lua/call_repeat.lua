-- POST /api/partners/calls repeating one reference already received: every
-- answer is 200 with the same call (no duplicate).
local run = os.getenv("LIFTDESK_RUN")
local equipment = os.getenv("LIFTDESK_EQUIPMENT")

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("LIFTDESK_KEY")
wrk.body = string.format(
  '{"reference":"BANC-REPETE-%s","equipement":"%s","type":"panne","description":"Banc d\'essai : référence répétée."}',
  run, equipment)
