-- Sets fields of an existing user hash and returns what they held before, in one step: a profile edit never
-- recreates a user that is gone, and the caller learns exactly which display name it replaced (to update the
-- people index, keys.search).
-- KEYS[1]   user:{uid}   HASH
-- ARGV      field, value, field, value, ...
-- returns   {old value or false, ...} one per field in order, or false when the user does not exist
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
local old = {}
for i = 1, #ARGV, 2 do
  old[#old + 1] = redis.call('HGET', KEYS[1], ARGV[i])
end
redis.call('HSET', KEYS[1], unpack(ARGV))
return old
