-- POST /api/partners/calls with a new reference every request (one wrk
-- thread: the counter is unique; LIFTDESK_RUN keeps runs apart).
local run = os.getenv("LIFTDESK_RUN")
local equipment = os.getenv("LIFTDESK_EQUIPMENT")
local counter = 0

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("LIFTDESK_KEY")

request = function()
  counter = counter + 1
  local body = string.format(
    '{"reference":"BANC-%s-%d","equipement":"%s","type":"panne","description":"Banc d\'essai : nouvel appel."}',
    run, counter, equipment)
  return wrk.format(nil, nil, nil, body)
end
