-- Takes a deleted reply out of its parent's replies and resets the parent's reply_count (parent's slot).
-- KEYS[1]  status:{P}    HASH
-- KEYS[2]  replies:{P}   ZSET
-- ARGV[1]  reply id
-- returns  1 if it was there, 0 if not; the counter is only written while the parent exists
local removed = redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], 'reply_count', redis.call('ZCARD', KEYS[2]))
end
return removed
