-- The follower's side of an unfollow (graph_remove.lua on following:{x}), which also reads the oldest entry
-- of the follower's home, so the caller knows how far back the former followee's posts can be there without
-- another round trip. All three keys share x's slot. Idempotent.
-- KEYS[1]  following:{x}   ZSET
-- KEYS[2]  user:{x}        HASH
-- KEYS[3]  home:{x}        ZSET
-- ARGV[1]  the followee's uid
-- returns  {1 if removed else 0, score of home's oldest entry} (the score left out when home is empty), or
--          {-1} with nothing changed when user:{x} does not exist
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {-1}
end
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[2], 'following', redis.call('ZCARD', KEYS[1]))
end
local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
return {removed, oldest[2]}
