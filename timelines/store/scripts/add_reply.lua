-- Records a reply under its parent: adds it to the parent's replies and sets the parent's reply_count from
-- that set's size in the same step, so racing replies (and deletions) never make the counter drift. Both
-- keys share the parent's slot.
-- KEYS[1]  status:{P}    HASH  the parent; only while it exists
-- KEYS[2]  replies:{P}   ZSET  reply id -> posted
-- ARGV[1]  reply id
-- ARGV[2]  posted
-- returns  the parent's new reply_count, or -1 when the parent is gone (nothing written)
if redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
local count = redis.call('ZCARD', KEYS[2])
redis.call('HSET', KEYS[1], 'reply_count', count)
return count
