-- Removes one notification from the feed, or all of them, and sets the unread count to what is left above the
-- read mark, which stays (user's slot).
-- KEYS[1]  notifications:{U}        ZSET
-- KEYS[2]  notifications:read:{U}   STRING
-- KEYS[3]  notifications:unread:{U} STRING
-- ARGV[1]  the notification's id, or 0 for every notification
-- returns  how many were removed
local id = tonumber(ARGV[1]) or 0
local removed
if id == 0 then
  removed = redis.call('ZCARD', KEYS[1])
  redis.call('DEL', KEYS[1])
else
  removed = redis.call('ZREMRANGEBYSCORE', KEYS[1], id, id)
end
local seen = redis.call('GET', KEYS[2]) or '0'
redis.call('SET', KEYS[3], redis.call('ZCOUNT', KEYS[1], '(' .. seen, '+inf'))
return removed
