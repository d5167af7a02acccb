-- Sets a counter from the size of the set it counts (repairs found by audit_timelines). Both keys share a
-- slot. Idempotent.
-- KEYS[1]  the counted set, e.g. followers:{uid} or list:in:{id}   ZSET
-- KEYS[2]  the hash holding the counter, e.g. user:{uid}           HASH
-- ARGV[1]  counter field
-- returns  the set's size, or -1 if the hash does not exist (nothing written)
if redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local size = redis.call('ZCARD', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[1], size)
return size
