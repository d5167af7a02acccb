-- An edit of a status's text: the version it replaces pushed onto its versions list and the hash rewritten, in
-- one step, only if the caller wrote it and nobody edited it since the caller read it (a compare-and-set on
-- the hash's ``edits`` counter, so two racing edits cannot both push the same old version).
-- KEYS[1]  status:{id}            HASH (either layout: store/status_hash.py)
-- KEYS[2]  status:versions:{id}   LIST, same slot
-- ARGV[1]  uid of the caller
-- ARGV[2]  the ``edits`` the caller read (0 when absent)
-- ARGV[3]  how many earlier versions the list may hold (limits.MAX_STATUS_VERSIONS - 1)
-- ARGV[4]  the JSON of the version being replaced, pushed on the list
-- ARGV[5]  edited_at: the time of this edit (seconds, as text)
-- ARGV[6..] triples: the field's short name, its long name, its new value ("" removes the field, but for
--           the text, which every status has: "" for a post of images alone)
-- returns  {"edited", <edits now>}, {"missing"}, {"not_owner"}, {"conflict"} or {"full"}
if redis.call('EXISTS', KEYS[1]) == 0 then
  return {'missing'}
end
if redis.call('HGET', KEYS[1], 'uid') ~= ARGV[1] then
  return {'not_owner'}
end
local edits = tonumber(redis.call('HGET', KEYS[1], 'edits') or '0')
if edits ~= tonumber(ARGV[2]) then
  return {'conflict'}
end
if edits >= tonumber(ARGV[3]) then
  return {'full'}
end
-- A hash written before the compact layout keeps its long names (it stores 'id').
local long = redis.call('HEXISTS', KEYS[1], 'id') == 1
for i = 6, #ARGV, 3 do
  local name = long and ARGV[i + 1] or ARGV[i]
  local other = long and ARGV[i] or ARGV[i + 1]
  if ARGV[i + 2] == '' and ARGV[i + 1] ~= 'message' then
    redis.call('HDEL', KEYS[1], name, other)
  else
    redis.call('HSET', KEYS[1], name, ARGV[i + 2])
  end
end
redis.call('LPUSH', KEYS[2], ARGV[4])
redis.call('HSET', KEYS[1], 'edited_at', ARGV[5], 'edits', edits + 1)
return {'edited', edits + 1}
