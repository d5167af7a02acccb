-- Renames a list if, and only if, it exists and the caller owns it: the check and the write are one step,
-- so a rename racing a delete cannot bring back a half list hash.
-- KEYS[1]  list:{id}   HASH
-- ARGV[1]  uid of the caller
-- ARGV[2]  new name
-- returns  "renamed", "missing" or "not_owner"
local owner = redis.call('HGET', KEYS[1], 'uid')
if not owner then
  return 'missing'
end
if owner ~= ARGV[1] then
  return 'not_owner'
end
redis.call('HSET', KEYS[1], 'name', ARGV[2])
return 'renamed'
