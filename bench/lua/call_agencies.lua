-- POST /api/partners/calls with a new reference every request, spread in
-- turn over several agencies: LIFTDESK_KEYS and LIFTDESK_EQUIPMENTS hold,
-- separated by commas, each agency's call-center key and the number of one
-- of its equipment (one wrk thread: the counter is unique; LIFTDESK_RUN
-- keeps runs apart).
local run = os.getenv("LIFTDESK_RUN")
local keys = {}
local equipments = {}
for key in string.gmatch(os.getenv("LIFTDESK_KEYS"), "[^,]+") do
  table.insert(keys, key)
end
for number in string.gmatch(os.getenv("LIFTDESK_EQUIPMENTS"), "[^,]+") do
  table.insert(equipments, number)
end
local counter = 0

wrk.method = "POST"

request = function()
  counter = counter + 1
  local n = (counter % #keys) + 1
  local body = string.format(
    '{"reference":"BANC-%s-%d","equipement":"%s","type":"panne","description":"Banc d\'essai : nouvel appel."}',
    run, counter, equipments[n])
  return wrk.format(nil, nil, {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. keys[n],
  }, body)
end
