-- One side of an unfollow: removes a member from followers:{x} or following:{x} and sets the matching
-- counter in user:{x} from the set's size. Both keys share x's slot. Idempotent.
-- KEYS[1]  followers:{x} or following:{x}   ZSET
-- KEYS[2]  user:{x}                         HASH
-- ARGV[1]  member uid
-- ARGV[2]  counter field: "followers" or "following"
-- ARGV[3]  optional: "strict" to change nothing and return -1 when user:{x} does not exist
-- returns  1 if the member was removed, 0 if it was not there (-1: no user:{x}, with "strict")
if ARGV[3] == 'strict' and redis.call('EXISTS', KEYS[2]) == 0 then
  return -1
end
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[2], redis.call('ZCARD', KEYS[1]))
end
return removed
